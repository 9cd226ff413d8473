import { Button, Card, Checkbox, Flex, Form, InputNumber, Radio, Result, Space, Spin, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alertLanguages, alertMethods, alertSettingsInputSchema, type AlertMethod, type AlertSettingsView } from '@rampart/contracts';
import { errorField } from '../../api/errors.ts';
import { issuesToErrors, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { AlertQueueCard } from './AlertQueueCard.tsx';
import { EmailCard, SmsCard, WechatCard, type MethodCardProps } from './AlertMethodCards.tsx';
import { alertQueueKey, alertsKey, fetchAlerts, saveAlerts, testAlert } from './alertsApi.ts';
import { errorAt, toDraft, toInput, type AlertsDraft } from './alertsDraft.ts';

function AlertsForm({ view }: { view: AlertSettingsView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [draft, setDraft] = useState<AlertsDraft>(() => toDraft(view));
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveAlerts,
    onSuccess: (saved) => {
      if (!saved) return;
      queryClient.setQueryData(alertsKey, saved);
      void queryClient.invalidateQueries({ queryKey: alertQueueKey });
      // Secrets come back blank (stored); the form shows them as kept.
      setDraft(toDraft(saved));
      setDirty(false);
    },
    onError: (e) => {
      // HTTP 400 names the field it refused (`email.recipients.1`): show the message there.
      const field = errorField(e);
      if (field) setErrors({ [field]: e.message });
    },
  });
  const test = useMutation({
    mutationFn: testAlert,
    // An SMS test spent from the budget: show the new count (tests run only on a saved, unchanged form).
    onSuccess: (result) => {
      if (result) setDraft((d) => ({ ...d, sms: { ...d.sms, remaining: result.remaining } }));
    },
  });

  const change = (path: string, next: AlertsDraft) => {
    setDraft(next);
    setDirty(true);
    setErrors((e) => withoutError(e, path));
  };
  const err = (path: string) => {
    const message = errorAt(errors, path);
    return message === undefined ? {} : { validateStatus: 'error' as const, help: <span data-testid={`alerts-error-${path}`}>{message}</span> };
  };

  const submit = () => {
    const parsed = alertSettingsInputSchema.safeParse(toInput(draft));
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  const cardProps: MethodCardProps = {
    draft,
    stored: view.stored,
    change,
    err,
    test: (method: AlertMethod) => test.mutate(method),
    testing: test.isPending ? (test.variables ?? null) : null,
    canTest: canEdit && !dirty,
  };

  return (
    <Form layout="vertical" disabled={!canEdit} onFinish={submit} data-testid="alerts-form">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card title={t('sys_alerts.service_title')} data-testid="alerts-service">
          <Form.Item label={t('sys_alerts.enabled')} extra={t('sys_alerts.enabled_hint')} {...err('enabled')}>
            <Switch checked={draft.enabled} onChange={(enabled) => change('enabled', { ...draft, enabled })} data-testid="alerts-enabled" />
          </Form.Item>
          <Form.Item label={t('sys_alerts.methods')} {...err('methods')}>
            <Checkbox.Group<AlertMethod>
              value={draft.methods}
              onChange={(methods) => change('methods', { ...draft, methods: alertMethods.filter((m) => methods.includes(m)) })}
              options={alertMethods.map((m) => ({ value: m, label: <span data-testid={`alerts-method-${m}`}>{t(`sys_alerts.method.${m}`)}</span> }))}
            />
          </Form.Item>
          <Flex gap={24} wrap>
            <Form.Item label={t('sys_alerts.interval')} extra={t('sys_alerts.interval_hint')} style={{ maxWidth: 520 }} {...err('interval')}>
              <InputNumber style={{ width: 160 }} value={draft.interval} suffix={t('sys_alerts.minutes')} onChange={(interval) => change('interval', { ...draft, interval })} data-testid="alerts-interval" />
            </Form.Item>
            <Form.Item label={t('sys_alerts.lang')} {...err('lang')}>
              <Radio.Group
                value={draft.lang}
                onChange={(e) => change('lang', { ...draft, lang: e.target.value as AlertsDraft['lang'] })}
                options={alertLanguages.map((l) => ({ value: l, label: <span data-testid={`alerts-lang-${l}`}>{t(`sys_alerts.langs.${l}`)}</span> }))}
              />
            </Form.Item>
          </Flex>
        </Card>
        <EmailCard {...cardProps} />
        <SmsCard {...cardProps} />
        <WechatCard {...cardProps} />
        <Flex gap={16} align="center" wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="alerts-save">
            {t('sys_alerts.save')}
          </Button>
          <Typography.Text type={dirty ? 'warning' : 'secondary'} data-testid="alerts-test-hint">
            {dirty ? t('sys_alerts.unsaved') : t('sys_alerts.test_hint')}
          </Typography.Text>
        </Flex>
      </Space>
    </Form>
  );
}

/** System settings, alerts tab: the notification service, its three methods, test sends and the send queue. */
export function AlertsPage() {
  const settings = useQuery({ queryKey: alertsKey, queryFn: fetchAlerts });
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 960 }} data-testid="alerts-page">
      {settings.data ? (
        // The form keeps its own draft after the first load; saving replaces it with what was stored.
        <AlertsForm view={settings.data} />
      ) : settings.isError ? (
        <Result status="warning" title={settings.error.message} />
      ) : (
        <Spin />
      )}
      <AlertQueueCard />
    </Space>
  );
}
