import { Button, Card, Flex, Form, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translate, trustAutoAddSchema, type TrustAutoAdd } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { fetchTrustAuto, saveTrustAuto, trustKey } from './trustApi.ts';
import { TrustValidity } from './TrustValidity.tsx';

/** The automatic add at panel sign-in: on/off and the validity the added addresses get. */
export function TrustAutoCard() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const canEdit = useCan('system', 'edit');
  const queryClient = useQueryClient();
  const stored = useQuery({ queryKey: [...trustKey, 'auto'], queryFn: fetchTrustAuto });
  const [draft, setDraft] = useState<{ enabled: boolean; days: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (stored.data && draft === null) setDraft(stored.data);
  }, [stored.data, draft]);
  const save = useMutation({
    mutationFn: (value: TrustAutoAdd) => saveTrustAuto(value),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [...trustKey, 'auto'] }),
  });
  if (!draft) return null;
  const submit = () => {
    const parsed = trustAutoAddSchema.safeParse({ enabled: draft.enabled, days: draft.days ?? undefined });
    if (!parsed.success) {
      setError(translate(lang, parsed.error.issues[0]?.message === 'trust_validity_invalid' ? 'trust_validity_invalid' : 'trust_validity_required'));
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  };
  return (
    <Card size="small" title={t('sys_trust.auto_title')} data-testid="trust-auto">
      <Typography.Paragraph type="secondary">{t('sys_trust.auto_hint')}</Typography.Paragraph>
      <Flex gap={16} align="flex-start" wrap>
        <Form.Item label={t('sys_trust.auto_enabled')} style={{ margin: 0 }}>
          <Switch checked={draft.enabled} disabled={!canEdit} onChange={(enabled) => setDraft({ ...draft, enabled })} data-testid="trust-auto-enabled" />
        </Form.Item>
        <Form.Item
          label={t('sys_trust.validity')}
          style={{ margin: 0 }}
          validateStatus={error ? 'error' : undefined}
          help={error ? <span data-testid="trust-auto-error-days">{error}</span> : undefined}
        >
          <TrustValidity
            key={stored.dataUpdatedAt}
            value={draft.days}
            prefix="trust-auto"
            onChange={(days) => {
              setDraft({ ...draft, days });
              setError(null);
            }}
          />
        </Form.Item>
        {canEdit && (
          <Button type="primary" loading={save.isPending} onClick={submit} data-testid="trust-auto-save">
            {t('sys_trust.auto_save')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
