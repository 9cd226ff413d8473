import { Alert, Button, Card, Flex, Form, Input, InputNumber, Radio, Select, Typography } from 'antd';
import type { FormItemProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { httpMethods, smsProviders, smtpSecurities, type AlertMethod, type AlertStoredSecrets } from '@rampart/contracts';
import type { AlertsDraft } from './alertsDraft.ts';

/** What each method card gets from the form. */
export interface MethodCardProps {
  draft: AlertsDraft;
  stored: AlertStoredSecrets;
  /** Replaces the draft; `path` is the field that changed (its error goes). */
  change: (path: string, next: AlertsDraft) => void;
  err: (path: string) => Pick<FormItemProps, 'validateStatus' | 'help'>;
  test: (method: AlertMethod) => void;
  testing: AlertMethod | null;
  canTest: boolean;
}

function TestButton({ method, test, testing, canTest }: Pick<MethodCardProps, 'test' | 'testing' | 'canTest'> & { method: AlertMethod }) {
  const { t } = useTranslation();
  return (
    <Button onClick={() => test(method)} loading={testing === method} disabled={!canTest || (testing !== null && testing !== method)} data-testid={`alerts-test-${method}`}>
      {t('sys_alerts.test')}
    </Button>
  );
}

/** A password input for a stored secret: blank keeps it, the placeholder says whether one is stored. */
function SecretInput({ value, stored, onChange, testId }: { value: string; stored: boolean; onChange: (v: string) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Input.Password
      value={value}
      autoComplete="new-password"
      placeholder={stored ? t('sys_alerts.secret_stored') : t('sys_alerts.secret_empty')}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}

function MethodCard({ title, method, children, ...props }: Pick<MethodCardProps, 'test' | 'testing' | 'canTest'> & { title: string; method: AlertMethod; children: ReactNode }) {
  return (
    <Card size="small" title={title} extra={<TestButton method={method} {...props} />} data-testid={`alerts-card-${method}`}>
      {children}
    </Card>
  );
}

export function EmailCard({ draft, stored, change, err, ...testProps }: MethodCardProps) {
  const { t } = useTranslation();
  const email = draft.email;
  const set = (patch: Partial<AlertsDraft['email']>, field: keyof AlertsDraft['email']) => change(`email.${field}`, { ...draft, email: { ...email, ...patch } });
  return (
    <MethodCard title={t('sys_alerts.email_title')} method="email" {...testProps}>
      <Flex gap={16} wrap>
        <Form.Item label={t('sys_alerts.smtp_host')} {...err('email.host')}>
          <Input style={{ width: 260 }} value={email.host} placeholder={t('sys_alerts.smtp_host_placeholder')} onChange={(e) => set({ host: e.target.value }, 'host')} data-testid="alerts-smtp-host" />
        </Form.Item>
        <Form.Item label={t('sys_alerts.smtp_port')} {...err('email.port')}>
          <InputNumber style={{ width: 120 }} value={email.port} onChange={(port) => set({ port }, 'port')} data-testid="alerts-smtp-port" />
        </Form.Item>
        <Form.Item label={t('sys_alerts.security')} {...err('email.security')}>
          <Radio.Group
            optionType="button"
            value={email.security}
            onChange={(e) => set({ security: e.target.value as AlertsDraft['email']['security'] }, 'security')}
            options={smtpSecurities.map((s) => ({ value: s, label: <span data-testid={`alerts-security-${s}`}>{t(`sys_alerts.securities.${s}`)}</span> }))}
          />
        </Form.Item>
      </Flex>
      <Flex gap={16} wrap>
        <Form.Item label={t('sys_alerts.smtp_user')} {...err('email.user')}>
          <Input style={{ width: 260 }} value={email.user} autoComplete="off" onChange={(e) => set({ user: e.target.value }, 'user')} data-testid="alerts-smtp-user" />
        </Form.Item>
        <Form.Item label={t('sys_alerts.smtp_password')} {...err('email.password')}>
          <SecretInput value={email.password} stored={stored.smtp_password} onChange={(password) => set({ password }, 'password')} testId="alerts-smtp-password" />
        </Form.Item>
        <Form.Item label={t('sys_alerts.from')} {...err('email.from')}>
          <Input style={{ width: 260 }} value={email.from} placeholder={t('sys_alerts.from_placeholder')} onChange={(e) => set({ from: e.target.value }, 'from')} data-testid="alerts-smtp-from" />
        </Form.Item>
      </Flex>
      <Form.Item label={t('sys_alerts.recipients')} extra={t('sys_alerts.recipients_hint')} {...err('email.recipients')}>
        <Input.TextArea rows={3} value={email.recipients} onChange={(e) => set({ recipients: e.target.value }, 'recipients')} data-testid="alerts-recipients" />
      </Form.Item>
    </MethodCard>
  );
}

export function SmsCard({ draft, stored, change, err, ...testProps }: MethodCardProps) {
  const { t } = useTranslation();
  const sms = draft.sms;
  const set = (patch: Partial<AlertsDraft['sms']>, field: string) => change(`sms.${field}`, { ...draft, sms: { ...sms, ...patch } });
  const aliyun = (patch: Partial<AlertsDraft['sms']['aliyun']>, field: string) => set({ aliyun: { ...sms.aliyun, ...patch } }, `aliyun.${field}`);
  const tencent = (patch: Partial<AlertsDraft['sms']['tencent']>, field: string) => set({ tencent: { ...sms.tencent, ...patch } }, `tencent.${field}`);
  const http = (patch: Partial<AlertsDraft['sms']['http']>, field: string) => set({ http: { ...sms.http, ...patch } }, `http.${field}`);
  const text = (label: string, path: string, value: string, onChange: (v: string) => void, extra?: string) => (
    <Form.Item label={t(label)} extra={extra ? t(extra) : undefined} {...err(`sms.${path}`)}>
      <Input style={{ width: 260 }} value={value} onChange={(e) => onChange(e.target.value)} data-testid={`alerts-sms-${path.replace('.', '-')}`} />
    </Form.Item>
  );
  return (
    <MethodCard title={t('sys_alerts.sms_title')} method="sms" {...testProps}>
      {sms.remaining === 0 && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('sys_alerts.remaining_zero')} data-testid="alerts-remaining-zero" />}
      <Flex gap={16} wrap>
        <Form.Item label={t('sys_alerts.provider')} {...err('sms.provider')}>
          <Select
            style={{ width: 220 }}
            value={sms.provider}
            onChange={(provider: AlertsDraft['sms']['provider']) => set({ provider }, 'provider')}
            options={smsProviders.map((p) => ({ value: p, label: t(`sys_alerts.providers.${p}`), 'data-testid': `alerts-provider-${p}` }))}
            data-testid="alerts-provider"
          />
        </Form.Item>
        <Form.Item label={t('sys_alerts.remaining')} extra={t('sys_alerts.remaining_hint')} {...err('sms.remaining')}>
          <InputNumber style={{ width: 160 }} value={sms.remaining} onChange={(remaining) => set({ remaining }, 'remaining')} data-testid="alerts-sms-remaining" />
        </Form.Item>
      </Flex>
      <Form.Item label={t('sys_alerts.phones')} extra={t('sys_alerts.phones_hint')} {...err('sms.phones')}>
        <Input.TextArea rows={3} value={sms.phones} onChange={(e) => set({ phones: e.target.value }, 'phones')} data-testid="alerts-phones" />
      </Form.Item>
      {sms.provider === 'aliyun' && (
        <Flex gap={16} wrap data-testid="alerts-sms-aliyun">
          {text('sys_alerts.endpoint', 'aliyun.endpoint', sms.aliyun.endpoint, (endpoint) => aliyun({ endpoint }, 'endpoint'))}
          {text('sys_alerts.region', 'aliyun.region', sms.aliyun.region, (region) => aliyun({ region }, 'region'))}
          {text('sys_alerts.access_key_id', 'aliyun.access_key_id', sms.aliyun.access_key_id, (access_key_id) => aliyun({ access_key_id }, 'access_key_id'))}
          <Form.Item label={t('sys_alerts.access_key_secret')} {...err('sms.aliyun.access_key_secret')}>
            <SecretInput value={sms.aliyun.access_key_secret} stored={stored.aliyun_secret} onChange={(access_key_secret) => aliyun({ access_key_secret }, 'access_key_secret')} testId="alerts-sms-aliyun-secret" />
          </Form.Item>
          {text('sys_alerts.sign_name', 'aliyun.sign_name', sms.aliyun.sign_name, (sign_name) => aliyun({ sign_name }, 'sign_name'))}
          {text('sys_alerts.template_code', 'aliyun.template_code', sms.aliyun.template_code, (template_code) => aliyun({ template_code }, 'template_code'))}
          {text('sys_alerts.template_param', 'aliyun.template_param', sms.aliyun.template_param, (template_param) => aliyun({ template_param }, 'template_param'), 'sys_alerts.template_param_hint')}
        </Flex>
      )}
      {sms.provider === 'tencent' && (
        <Flex gap={16} wrap data-testid="alerts-sms-tencent">
          {text('sys_alerts.endpoint', 'tencent.endpoint', sms.tencent.endpoint, (endpoint) => tencent({ endpoint }, 'endpoint'))}
          {text('sys_alerts.region', 'tencent.region', sms.tencent.region, (region) => tencent({ region }, 'region'))}
          {text('sys_alerts.secret_id', 'tencent.secret_id', sms.tencent.secret_id, (secret_id) => tencent({ secret_id }, 'secret_id'))}
          <Form.Item label={t('sys_alerts.secret_key')} {...err('sms.tencent.secret_key')}>
            <SecretInput value={sms.tencent.secret_key} stored={stored.tencent_secret} onChange={(secret_key) => tencent({ secret_key }, 'secret_key')} testId="alerts-sms-tencent-secret" />
          </Form.Item>
          {text('sys_alerts.sdk_app_id', 'tencent.sdk_app_id', sms.tencent.sdk_app_id, (sdk_app_id) => tencent({ sdk_app_id }, 'sdk_app_id'))}
          {text('sys_alerts.sign_name', 'tencent.sign_name', sms.tencent.sign_name, (sign_name) => tencent({ sign_name }, 'sign_name'))}
          {text('sys_alerts.template_id', 'tencent.template_id', sms.tencent.template_id, (template_id) => tencent({ template_id }, 'template_id'), 'sys_alerts.template_id_hint')}
        </Flex>
      )}
      {sms.provider === 'http' && (
        <div data-testid="alerts-sms-http">
          <Flex gap={16} wrap>
            <Form.Item label={t('sys_alerts.gateway_url')} {...err('sms.http.url')}>
              <Input style={{ width: 360 }} value={sms.http.url} placeholder={t('sys_alerts.gateway_url_placeholder')} onChange={(e) => http({ url: e.target.value }, 'url')} data-testid="alerts-sms-http-url" />
            </Form.Item>
            <Form.Item label={t('sys_alerts.http_method')} {...err('sms.http.method')}>
              <Radio.Group
                optionType="button"
                value={sms.http.method}
                onChange={(e) => http({ method: e.target.value as AlertsDraft['sms']['http']['method'] }, 'method')}
                options={httpMethods.map((m) => ({ value: m, label: <span data-testid={`alerts-http-method-${m}`}>{m}</span> }))}
              />
            </Form.Item>
          </Flex>
          <Form.Item label={t('sys_alerts.template')} extra={t('sys_alerts.template_hint')} {...err('sms.http.template')}>
            <Input.TextArea rows={2} value={sms.http.template} onChange={(e) => http({ template: e.target.value }, 'template')} data-testid="alerts-sms-http-template" />
          </Form.Item>
          <Flex gap={16} wrap>
            {text('sys_alerts.header_name', 'http.header_name', sms.http.header_name, (header_name) => http({ header_name }, 'header_name'))}
            <Form.Item label={t('sys_alerts.header_value')} {...err('sms.http.header_value')}>
              <SecretInput value={sms.http.header_value} stored={stored.http_header_value} onChange={(header_value) => http({ header_value }, 'header_value')} testId="alerts-sms-http-header-value" />
            </Form.Item>
          </Flex>
        </div>
      )}
    </MethodCard>
  );
}

export function WechatCard({ draft, stored, change, err, ...testProps }: MethodCardProps) {
  const { t } = useTranslation();
  return (
    <MethodCard title={t('sys_alerts.wechat_title')} method="wechat" {...testProps}>
      <Form.Item label={t('sys_alerts.webhook')} extra={t('sys_alerts.webhook_hint')} {...err('wechat.webhook')}>
        <Input
          value={draft.wechat.webhook}
          placeholder={t('sys_alerts.webhook_placeholder')}
          onChange={(e) => change('wechat.webhook', { ...draft, wechat: { webhook: e.target.value } })}
          data-testid="alerts-webhook"
        />
      </Form.Item>
      {stored.wecom_key && <Typography.Text type="secondary" data-testid="alerts-webhook-key-stored">{t('sys_alerts.secret_stored')}</Typography.Text>}
    </MethodCard>
  );
}
