import { CloudSyncOutlined } from '@ant-design/icons';
import { App, Button, List, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isMessageKey, translate, type VirlibComponent } from '@rampart/contracts';
import { useLanguage } from '../../../i18n/useLanguage.ts';
import { useCan } from '../../../session/useUserInfo.ts';
import { homeIndexKey } from '../useHomeIndex.ts';
import { updateVirlib } from './homeUpdateApi.ts';

/** One part's line: what it is and what happened to it (old → new, unchanged, or why it failed). */
function PartLine({ part }: { part: VirlibComponent }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const reason = part.reason && isMessageKey(part.reason) ? translate(lang, part.reason, { detail: part.detail }) : part.reason;
  const [rules = '0', hashes = '0'] = part.detail.split('/');
  const outcome =
    part.state === 'failed' ? t('home_update.virlib_state.failed', { reason })
      : part.kind === 'custom_library' ? t('home_update.virlib_custom', { rules, hashes })
        : part.state === 'updated' ? t('home_update.virlib_state.updated', { old: part.old_version, new: part.new_version })
          : t('home_update.virlib_state.unchanged', { version: part.new_version });
  return (
    <List.Item data-testid={`virlib-part-${part.kind}`}>
      <Typography.Text>{t(`home_update.virlib_part.${part.kind}`, { name: part.name })}</Typography.Text>
      <Typography.Text type={part.state === 'failed' ? 'danger' : part.state === 'updated' ? 'success' : 'secondary'}>{outcome}</Typography.Text>
    </List.Item>
  );
}

/** Beside the cloud library version: fetch every URL feed now and reload the rule sets, then show each part's outcome. */
export function VirlibUpdateButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const allowed = useCan('home', 'edit');
  const run = useMutation({
    mutationFn: updateVirlib,
    onSuccess: (result) => {
      const feeds = result.components.some((part) => part.kind === 'feed');
      modal.info({
        title: t('home_update.virlib_result_title'),
        width: 560,
        content: (
          <>
            <List size="small" dataSource={result.components} renderItem={(part) => <PartLine part={part} />} />
            {!feeds && <Typography.Text type="secondary">{t('home_update.virlib_no_feeds')}</Typography.Text>}
          </>
        ),
        okText: t('common.i_know'),
      });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: homeIndexKey }),
  });
  if (!allowed) return null;
  return (
    <Button size="small" icon={<CloudSyncOutlined />} loading={run.isPending} onClick={() => run.mutate()} data-testid="virlib-update">
      {t('home_update.virlib_button')}
    </Button>
  );
}
