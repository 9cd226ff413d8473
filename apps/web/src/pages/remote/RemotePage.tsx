import { SaveOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, Form, Input, InputNumber, Spin, Switch, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { remoteBruteforceSchema, type RemoteBruteforce, type RemoteView } from '@rampart/contracts';
import { errorProps, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan, useUserInfo } from '../../session/useUserInfo.ts';
import { FirewallTab, useReportChange } from '../firewall/FirewallTab.tsx';
import { schemaErrors } from '../firewall/forms.ts';
import { AreaSelect } from './AreaSelect.tsx';
import { fetchRemote, remoteKey, saveRemoteAccess, saveRemoteBruteforce } from './api.ts';
import { accessOf, draftOf, nothingAuthorized, type AccessDraft } from './remoteForm.ts';
import { WindowsEditor } from './WindowsEditor.tsx';

const offsetText = (minutes: number) => `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/** The ports sshd listens on; when sshd -T fails now, the ports still guarded from its last good reading beside why. */
function sshdText(sshd: RemoteView['sshd'], t: TFunction): string {
  if (sshd.ok) return sshd.ports.join(', ');
  if (sshd.ports.length > 0) return t('remote.sshd_stale', { ports: sshd.ports.join(', '), message: sshd.message });
  return t('remote.sshd_unreadable', { message: sshd.message });
}

/** What sshd says and whether the kernel enforces the rule now. */
function StatusCard({ view }: { view: RemoteView }) {
  const { t } = useTranslation();
  return (
    <Card title={t('remote.status_title')} size="small" data-testid="remote-status">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('remote.port')}>
          <span data-testid="remote-port">{sshdText(view.sshd, t)}</span>
          <Typography.Text type="secondary">{` · ${t('remote.port_hint')}`}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('remote.enforcement')}>
          <Tag color={view.enforced ? 'green' : 'default'} data-testid="remote-enforced">{t(view.enforced ? 'remote.enforced' : 'remote.not_enforced')}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('remote.time_zone')}>
          {offsetText(view.utc_offset_minutes)}
          {view.next_offset_change !== null && <Typography.Text type="secondary">{` · ${t('remote.dst_reload', { at: new Date(view.next_offset_change).toLocaleString() })}`}</Typography.Text>}
        </Descriptions.Item>
      </Descriptions>
      {view.warnings.includes('remote_firewall_off') && <Alert type="warning" showIcon title={t('remote.firewall_off')} data-testid="remote-firewall-off" />}
    </Card>
  );
}

function AccessCard({ view }: { view: RemoteView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const report = useReportChange();
  const readOnly = !useCan('remote', 'edit');
  const moduleOn = useUserInfo().data?.module_list.remote === 1;
  const [edited, setEdited] = useState<AccessDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const draft = edited ?? draftOf(view.access);
  const set = (patch: Partial<AccessDraft>) => {
    setEdited({ ...draft, ...patch });
    setErrors({});
  };
  const save = useMutation({
    mutationFn: saveRemoteAccess,
    onSuccess: (change) => {
      setEdited(null);
      report(change);
      void queryClient.invalidateQueries({ queryKey: remoteKey });
    },
  });
  const onSave = () => {
    const parsed = accessOf(draft);
    if (!parsed.success) return setErrors(schemaErrors(parsed.error.issues, lang));
    save.mutate(parsed.data);
  };
  return (
    <Card title={t('remote.access_title')} size="small" data-testid="remote-access">
      {moduleOn && nothingAuthorized(draft) && <Alert type="warning" showIcon title={t('remote.nothing_authorized')} style={{ marginBottom: 12 }} data-testid="remote-nothing-authorized" />}
      <Form layout="vertical">
        <Form.Item label={t('remote.ips')} extra={t('remote.ips_hint')} {...errorProps(errors, 'ips', 'remote')}>
          <Input.TextArea rows={4} disabled={readOnly} value={draft.ipsText} onChange={(e) => set({ ipsText: e.target.value })} data-testid="remote-ips" />
        </Form.Item>
        <Form.Item label={t('remote.areas')} {...errorProps(errors, 'areas', 'remote')}>
          <AreaSelect value={draft.areas} onChange={(areas) => set({ areas })} disabled={readOnly} />
        </Form.Item>
        <Form.Item label={t('remote.windows')} extra={t('remote.windows_hint')}>
          <WindowsEditor windows={draft.windows} onChange={(windows) => set({ windows })} readOnly={readOnly} errors={errors} />
        </Form.Item>
        <Form.Item label={t('remote.computer_name')} extra={<span data-testid="remote-computer-name-why">{t(`remote.${view.computer_name_rule.reason}`)}</span>}>
          <Input disabled placeholder={t('remote.computer_name_placeholder')} data-testid="remote-computer-name" />
        </Form.Item>
        <Form.Item label={t('remote.notify_login')} extra={t('remote.notify_login_hint')}>
          <Switch disabled={readOnly} checked={draft.notify_login} onChange={(notify_login) => set({ notify_login })} data-testid="remote-notify" />
        </Form.Item>
      </Form>
      {!readOnly && (
        <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={onSave} data-testid="remote-access-save">
          {t('remote.save')}
        </Button>
      )}
    </Card>
  );
}

/** The firewall's SSH brute-force scenario, shown per hour: one setting, edited from either page. */
function BruteforceCard({ view }: { view: RemoteView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const readOnly = !useCan('remote', 'edit');
  const loaded: RemoteBruteforce = { enabled: view.bruteforce.enabled, attempts_per_hour: view.bruteforce.attempts_per_hour, block_minutes: view.bruteforce.block_minutes };
  const [edited, setEdited] = useState<{ [K in keyof RemoteBruteforce]: RemoteBruteforce[K] | null } | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const draft = edited ?? loaded;
  const save = useMutation({
    mutationFn: saveRemoteBruteforce,
    onSuccess: () => {
      setEdited(null);
      void queryClient.invalidateQueries({ queryKey: remoteKey });
      void queryClient.invalidateQueries({ queryKey: ['firewall'] });
    },
  });
  const onSave = () => {
    const parsed = remoteBruteforceSchema.safeParse(draft);
    if (!parsed.success) return setErrors(schemaErrors(parsed.error.issues, lang));
    save.mutate(parsed.data);
  };
  return (
    <Card title={t('remote.bruteforce_title')} size="small" data-testid="remote-bruteforce">
      <Typography.Paragraph type="secondary">{t('remote.bruteforce_hint')}</Typography.Paragraph>
      {view.bruteforce.seconds !== 3600 && <Alert type="info" showIcon title={t('remote.bruteforce_window', { seconds: view.bruteforce.seconds })} style={{ marginBottom: 12 }} data-testid="remote-bruteforce-window" />}
      <Flex gap={16} align="flex-start" wrap>
        <Form.Item label={t('remote.bruteforce_enabled')}>
          <Switch disabled={readOnly} checked={draft.enabled ?? false} onChange={(enabled) => setEdited({ ...draft, enabled })} data-testid="remote-bruteforce-enabled" />
        </Form.Item>
        <Form.Item label={t('remote.attempts_per_hour')} {...errorProps(errors, 'attempts_per_hour', 'remote')}>
          <InputNumber min={1} disabled={readOnly} value={draft.attempts_per_hour} onChange={(v) => setEdited({ ...draft, attempts_per_hour: v })} data-testid="remote-attempts" />
        </Form.Item>
        <Form.Item label={t('remote.block_minutes')} {...errorProps(errors, 'block_minutes', 'remote')}>
          <InputNumber min={1} disabled={readOnly} value={draft.block_minutes} onChange={(v) => setEdited({ ...draft, block_minutes: v })} data-testid="remote-block-minutes" />
        </Form.Item>
      </Flex>
      {!readOnly && (
        <Button icon={<SaveOutlined />} loading={save.isPending} onClick={onSave} data-testid="remote-bruteforce-save">
          {t('remote.save')}
        </Button>
      )}
    </Card>
  );
}

/** Remote protection (`/remote`): SSH on Linux. Inside the firewall's frame: its kernel banner and probation dialog apply. */
export function RemotePage() {
  const query = useQuery({ queryKey: remoteKey, queryFn: fetchRemote });
  return (
    <FirewallTab testId="remote-page">
      {query.data ? (
        <Flex vertical gap={16}>
          <StatusCard view={query.data} />
          <AccessCard view={query.data} />
          <BruteforceCard view={query.data} />
        </Flex>
      ) : (
        <Spin />
      )}
    </FirewallTab>
  );
}
