import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, Switch, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DynamicSettings } from '@rampart/contracts';
import { useCan } from '../../session/useUserInfo.ts';
import { dynamicKey, saveSettings } from './api.ts';
import { useDynamicNames } from './names.ts';

/** The attack sound and the server location (a country code; empty: from the server's public address). */
export function SettingsCard({ saved, autoArea }: { saved: DynamicSettings; autoArea: string }) {
  const { t } = useTranslation();
  const names = useDynamicNames();
  const queryClient = useQueryClient();
  const canEdit = useCan('dynamic', 'edit');
  const [draft, setDraft] = useState<DynamicSettings | null>(null);
  const shown = draft ?? saved;
  const save = useMutation({
    mutationFn: () => saveSettings(shown),
    onSuccess: () => setDraft(null),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: dynamicKey }),
  });
  return (
    <Card size="small" title={t('dynamic.settings')} data-testid="dynamic-settings">
      <Flex vertical gap={8}>
        <Flex gap={8} align="center">
          <Typography.Text>{t('dynamic.sound')}</Typography.Text>
          <Switch checked={shown.sound} disabled={!canEdit} onChange={(sound) => setDraft({ ...shown, sound })} data-testid="dynamic-sound" />
        </Flex>
        <Flex gap={8} align="center">
          <Typography.Text>{t('dynamic.location')}</Typography.Text>
          <Input
            style={{ width: 80 }}
            maxLength={2}
            disabled={!canEdit}
            value={shown.location}
            onChange={(e) => setDraft({ ...shown, location: e.target.value.toUpperCase() })}
            data-testid="dynamic-location"
          />
          <Typography.Text type="secondary">
            {shown.location ? names.area(shown.location) : autoArea ? t('dynamic.location_auto', { area: names.area(autoArea) }) : t('dynamic.location_auto_unknown')}
          </Typography.Text>
        </Flex>
        {canEdit && (
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => save.mutate()} data-testid="dynamic-settings-save" style={{ alignSelf: 'flex-start' }}>
            {t('dynamic.save')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
