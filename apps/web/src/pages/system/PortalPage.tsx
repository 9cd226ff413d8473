import { UploadOutlined } from '@ant-design/icons';
import {
  App, Button, Card, Descriptions, Flex, Form, Input, InputNumber, Radio, Result, Select, Space, Spin, Switch, Tag, Typography, Upload,
} from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  areaName, loginCheckModes, portalSaveSchema, searchAreas, type PortalRestart, type PortalSaveInput, type PortalSaveResult, type PortalView,
} from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { feedback } from '../../api/feedback.ts';
import { closeAfter, successModalMs } from '../../api/envelope.ts';
import { errorProps, issuesToErrors, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { fetchPortal, portalKey, savePortal } from './portalApi.ts';
import { PortalRestartModal } from './PortalRestartModal.tsx';

type Mode = PortalView['login_check_mode'];

/** The form as typed: numbers may be empty while the user types, the IPs are one text. */
interface Draft {
  port: number | null;
  safe_entry: string;
  domain: string;
  https: { enabled: boolean; cert: string; key: string };
  authorized: { enabled: boolean; ipsText: string; areas: string[] };
  login_notice: boolean;
  login_check_mode: Mode;
  login_error_count: number | null;
  session_timeout: number | null;
}

const draftOf = (view: PortalView): Draft => ({
  port: view.port,
  safe_entry: view.safe_entry,
  domain: view.domain,
  // The key never comes back: empty keeps the stored one.
  https: { enabled: view.https.enabled, cert: view.https.cert, key: '' },
  authorized: { enabled: view.authorized.enabled, ipsText: view.authorized.ips.join('\n'), areas: view.authorized.areas },
  login_notice: view.login_notice,
  login_check_mode: view.login_check_mode,
  login_error_count: view.login_error_count,
  session_timeout: view.session_timeout,
});

/** One entry per non-empty line. */
const linesOf = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

function inputOf(draft: Draft, confirm: boolean) {
  return {
    ...draft,
    authorized: { enabled: draft.authorized.enabled, ips: linesOf(draft.authorized.ipsText), areas: draft.authorized.areas },
    confirm,
  };
}

/** A hard-to-guess entry: 12 letters and digits from the browser's random source. */
function randomEntry(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => alphabet[b % alphabet.length]).join('');
}

/** Reads a chosen file into a text field instead of uploading it on its own. */
function PemUpload({ label, testId, onText }: { label: string; testId: string; onText: (text: string) => void }) {
  return (
    <Upload
      accept=".pem,.crt,.cer,.key,.txt"
      showUploadList={false}
      beforeUpload={(file) => {
        void file.text().then(onText);
        return false;
      }}
    >
      <Button size="small" icon={<UploadOutlined />} data-testid={testId}>
        {label}
      </Button>
    </Upload>
  );
}

function PortalForm({ view }: { view: PortalView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [restart, setRestart] = useState<PortalRestart | null>(null);
  const [areaSearch, setAreaSearch] = useState('');

  const change = (path: string, next: Draft) => {
    setDraft(next);
    setErrors((e) => withoutError(path.startsWith('authorized.ips') ? withoutError(e, 'authorized.ips') : e, path));
  };
  const err = (path: string) => errorProps(errors, path, 'portal');
  // The IPs are one text: the first refused line is told on it, by line number.
  const ipsKey = Object.keys(errors).find((k) => k.startsWith('authorized.ips'));
  const ipsLine = ipsKey ? Number(ipsKey.split('.')[2]) : NaN;
  const ipsError = ipsKey === undefined ? {} : errorProps(
    { 'authorized.ips': Number.isInteger(ipsLine) ? t('sys_portal.line_error', { line: ipsLine + 1, msg: errors[ipsKey] }) : errors[ipsKey]! },
    'authorized.ips', 'portal',
  );

  const done = (result: PortalSaveResult, msg: string) => {
    if (result.restart) {
      setRestart(result.restart);
      return;
    }
    if (result.view) {
      queryClient.setQueryData(portalKey, result.view);
      setDraft(draftOf(result.view));
    }
    closeAfter(feedback().success({ content: msg }), successModalMs);
  };

  const save = useMutation({
    mutationFn: (input: PortalSaveInput) => savePortal(input).then((result) => ({ result })),
    onError: (e) => {
      // A refusal that names its field is shown there; anything else in the error modal.
      const field = errorField(e);
      if (field) setErrors({ [field]: e.message });
      else if (!isApiError(e) || e.kind !== 'silent') feedback().error({ content: e.message });
    },
  });

  const submit = async (confirm: boolean) => {
    const input = inputOf(draft, confirm);
    const parsed = portalSaveSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    const { result } = await save.mutateAsync(input as PortalSaveInput).catch(() => ({ result: null }));
    if (!result) return;
    if (!result.saved) {
      // The risks, then the second "yes".
      modal.confirm({
        title: t('sys_portal.confirm_title'),
        content: (
          <ul data-testid="portal-warnings" style={{ paddingInlineStart: 18 }}>
            {result.warnings.map((w) => <li key={w.key} data-testid={`portal-warning-${w.key}`}>{w.msg}</li>)}
          </ul>
        ),
        okText: t('sys_portal.confirm_ok'),
        cancelText: t('sys_portal.cancel'),
        okButtonProps: { danger: true, ...{ 'data-testid': 'portal-confirm-ok' } },
        onOk: () => submit(true),
      });
      return;
    }
    done(result, t('sys_portal.saved'));
  };

  const needle = areaSearch.trim();
  const matches = searchAreas(needle, lang, 50);
  const areaOptions = [
    ...draft.authorized.areas.filter((code) => !matches.some((m) => m.code === code)).map((code) => ({ value: code, label: areaName(code, lang) })),
    ...matches.map((m) => ({ value: m.code, label: m.name, 'data-testid': `portal-area-${m.code}` })),
  ];
  const info = view.https.info;
  const expired = info !== null && info.not_after < Date.now();

  return (
    <Form layout="vertical" style={{ maxWidth: 820 }} disabled={!canEdit} onFinish={() => void submit(false)} data-testid="portal-form">
      <Typography.Title level={5}>{t('sys_portal.address_title')}</Typography.Title>
      <Form.Item label={t('sys_portal.current_address')}>
        <Typography.Text copyable data-testid="portal-address">{view.address}</Typography.Text>
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item label={t('sys_portal.port')} extra={t('sys_portal.port_hint')} {...err('port')}>
          <InputNumber style={{ width: 160 }} value={draft.port} onChange={(port) => change('port', { ...draft, port })} data-testid="portal-port" />
        </Form.Item>
        <Form.Item label={t('sys_portal.safe_entry')} extra={t('sys_portal.safe_entry_hint')} {...err('safe_entry')}>
          <Space.Compact>
            <Input
              style={{ width: 260 }}
              prefix="/"
              value={draft.safe_entry}
              placeholder={t('sys_portal.safe_entry_placeholder')}
              onChange={(e) => change('safe_entry', { ...draft, safe_entry: e.target.value })}
              data-testid="portal-entry"
            />
            <Button onClick={() => change('safe_entry', { ...draft, safe_entry: randomEntry() })} data-testid="portal-entry-random">
              {t('sys_portal.random_entry')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Flex>
      <Form.Item label={t('sys_portal.domain')} extra={t('sys_portal.domain_hint')} {...err('domain')}>
        <Input
          style={{ width: 360 }}
          value={draft.domain}
          placeholder={t('sys_portal.domain_placeholder')}
          onChange={(e) => change('domain', { ...draft, domain: e.target.value })}
          data-testid="portal-domain"
        />
      </Form.Item>

      <Typography.Title level={5}>{t('sys_portal.https_title')}</Typography.Title>
      <Form.Item label={t('sys_portal.https_enabled')} {...err('https.enabled')}>
        <Switch checked={draft.https.enabled} onChange={(enabled) => change('https', { ...draft, https: { ...draft.https, enabled } })} data-testid="portal-https" />
      </Form.Item>
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }} data-testid="portal-cert-info">
        {info ? (
          <>
            <Descriptions.Item label={t('sys_portal.cert_issuer')}>{info.issuer}</Descriptions.Item>
            <Descriptions.Item label={t('sys_portal.cert_domains')}>{info.domains.join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('sys_portal.cert_not_before')}>{formatDateTime(info.not_before)}</Descriptions.Item>
            <Descriptions.Item label={t('sys_portal.cert_not_after')}>
              {formatDateTime(info.not_after)} {expired && <Tag color="error">{t('sys_portal.cert_expired')}</Tag>}
            </Descriptions.Item>
          </>
        ) : (
          <Descriptions.Item label={t('sys_portal.cert_issuer')}>{t('sys_portal.cert_none')}</Descriptions.Item>
        )}
      </Descriptions>
      <Flex gap={16} wrap>
        <Form.Item style={{ flex: 1, minWidth: 320 }} label={t('sys_portal.cert')} {...err('https.cert')}>
          <Input.TextArea
            rows={6}
            value={draft.https.cert}
            placeholder={t('sys_portal.cert_placeholder')}
            onChange={(e) => change('https.cert', { ...draft, https: { ...draft.https, cert: e.target.value } })}
            data-testid="portal-cert"
          />
          <PemUpload label={t('sys_portal.upload_cert')} testId="portal-cert-upload" onText={(cert) => change('https.cert', { ...draft, https: { ...draft.https, cert } })} />
        </Form.Item>
        <Form.Item style={{ flex: 1, minWidth: 320 }} label={t('sys_portal.key')} {...err('https.key')}>
          <Input.TextArea
            rows={6}
            value={draft.https.key}
            placeholder={view.https.has_key ? t('sys_portal.key_stored_placeholder') : t('sys_portal.key_placeholder')}
            onChange={(e) => change('https.key', { ...draft, https: { ...draft.https, key: e.target.value } })}
            data-testid="portal-key"
          />
          <PemUpload label={t('sys_portal.upload_key')} testId="portal-key-upload" onText={(key) => change('https.key', { ...draft, https: { ...draft.https, key } })} />
        </Form.Item>
      </Flex>

      <Typography.Title level={5}>{t('sys_portal.access_title')}</Typography.Title>
      <Form.Item label={t('sys_portal.authorized_enabled')} extra={t('sys_portal.authorized_hint', { ip: view.client_ip })} {...err('authorized.enabled')}>
        <Switch
          checked={draft.authorized.enabled}
          onChange={(enabled) => change('authorized.enabled', { ...draft, authorized: { ...draft.authorized, enabled } })}
          data-testid="portal-authorized"
        />
      </Form.Item>
      <Form.Item label={t('sys_portal.authorized_ips')} {...ipsError}>
        <Input.TextArea
          rows={4}
          value={draft.authorized.ipsText}
          placeholder={t('sys_portal.authorized_ips_placeholder')}
          onChange={(e) => change('authorized.ips', { ...draft, authorized: { ...draft.authorized, ipsText: e.target.value } })}
          data-testid="portal-ips"
        />
      </Form.Item>
      <Form.Item label={t('sys_portal.authorized_areas')} {...err('authorized.areas')}>
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: setAreaSearch }}
          value={draft.authorized.areas}
          placeholder={t('sys_portal.authorized_areas_placeholder')}
          onChange={(areas: string[]) => {
            setAreaSearch('');
            change('authorized.areas', { ...draft, authorized: { ...draft.authorized, areas } });
          }}
          options={areaOptions}
          data-testid="portal-areas"
        />
      </Form.Item>

      <Typography.Title level={5}>{t('sys_portal.login_title')}</Typography.Title>
      <Form.Item label={t('sys_portal.login_notice')} extra={t('sys_portal.login_notice_hint')}>
        <Switch checked={draft.login_notice} onChange={(login_notice) => change('login_notice', { ...draft, login_notice })} data-testid="portal-login-notice" />
      </Form.Item>
      <Form.Item label={t('sys_portal.check_mode')} {...err('login_check_mode')}>
        <Radio.Group
          value={draft.login_check_mode}
          onChange={(e) => change('login_check_mode', { ...draft, login_check_mode: e.target.value as Mode })}
          options={loginCheckModes.map((m) => ({ value: m, label: <span data-testid={`portal-check-${m}`}>{t(`sys_portal.check_modes.${m}`)}</span> }))}
        />
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item label={t('sys_portal.error_count')} extra={t('sys_portal.error_count_hint')} {...err('login_error_count')}>
          <InputNumber
            style={{ width: 180 }}
            value={draft.login_error_count}
            suffix={t('sys_portal.times')}
            onChange={(v) => change('login_error_count', { ...draft, login_error_count: v })}
            data-testid="portal-error-count"
          />
        </Form.Item>
        <Form.Item label={t('sys_portal.session_timeout')} extra={t('sys_portal.session_timeout_hint')} {...err('session_timeout')}>
          <InputNumber
            style={{ width: 180 }}
            value={draft.session_timeout}
            suffix={t('sys_portal.minutes')}
            onChange={(v) => change('session_timeout', { ...draft, session_timeout: v })}
            data-testid="portal-session-timeout"
          />
        </Form.Item>
      </Flex>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="portal-save">
        {t('sys_portal.save')}
      </Button>
      {restart && <PortalRestartModal restart={restart} />}
    </Form>
  );
}

/** System settings, portal tab: the panel's address, HTTPS, access restriction and sign-in policy (GET/POST /system/portal). */
export function PortalPage() {
  const portal = useQuery({ queryKey: portalKey, queryFn: fetchPortal });
  return (
    <Card data-testid="portal-card">
      {portal.data ? (
        <PortalForm view={portal.data} />
      ) : portal.isError ? (
        <Result status="warning" title={portal.error.message} />
      ) : (
        <Spin />
      )}
    </Card>
  );
}
