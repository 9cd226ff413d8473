import { SaveOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Input, Spin, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useUserInfo } from '../../session/useUserInfo.ts';
import { cloudKey, fetchCloudStatus, saveCloudSettings } from './api.ts';
import { FeedsCard } from './FeedsCard.tsx';
import { KeysCard } from './KeysCard.tsx';

/** The administrator's own ranges: kept out of every feed. */
function OwnRangesCard({ saved }: { saved: readonly string[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useCan('cloud', 'edit');
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? saved.join('\n');
  const save = useMutation({
    mutationFn: () => saveCloudSettings({ own_ranges: shown.split('\n').map((line) => line.trim()).filter(Boolean) }),
    onSuccess: () => setText(null),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: cloudKey }),
  });
  return (
    <Card size="small" title={t('cloud.own_title')} data-testid="cloud-own">
      <Typography.Paragraph type="secondary">{t('cloud.own_hint')}</Typography.Paragraph>
      <Input.TextArea rows={3} disabled={!canEdit} value={shown} onChange={(e) => setText(e.target.value)} data-testid="cloud-own-ranges" />
      {canEdit && (
        <Button type="primary" icon={<SaveOutlined />} style={{ marginTop: 8 }} loading={save.isPending} onClick={() => save.mutate()} data-testid="cloud-own-save">
          {t('cloud.save')}
        </Button>
      )}
    </Card>
  );
}

/** Cloud protection (`/cloud/index`): threat-intel feeds, the keys that sign them, and the addresses they never block. */
export function CloudPage() {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: cloudKey, queryFn: fetchCloudStatus });
  const moduleOn = useUserInfo().data?.module_list.cloud === 1;
  if (status.isError && !status.data) return <Alert type="error" showIcon title={t('error.request_failed')} data-testid="cloud-error" />;
  if (!status.data) return <Spin data-testid="cloud-loading" />;
  const view = status.data;
  return (
    <Flex vertical gap={16} data-testid="cloud-page">
      <Typography.Paragraph type="secondary" data-testid="cloud-intro">{t('cloud.intro')}</Typography.Paragraph>
      {!view.kernel && <Alert type="warning" showIcon title={t('cloud.no_kernel')} data-testid="cloud-no-kernel" />}
      {view.kernel && !moduleOn && <Alert type="info" showIcon title={t('cloud.module_off')} data-testid="cloud-module-off" />}
      <FeedsCard feeds={view.feeds} />
      <KeysCard keys={view.keys} />
      <OwnRangesCard saved={view.settings.own_ranges} />
      <Typography.Text type="secondary" data-testid="cloud-subtracted">{t('cloud.subtracted', { ranges: view.always_subtracted.join(', ') })}</Typography.Text>
    </Flex>
  );
}
