import { DeleteOutlined, PlusOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Select, Space, Spin, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { accessLogFormats, attackSettingsSchema, type AttackSettings } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { attackKey, fetchAttackSettings, saveAttackSettings } from './api.ts';
import { FirewallTab } from './FirewallTab.tsx';
import { schemaErrors } from './forms.ts';

type Group = Exclude<keyof AttackSettings, 'access_logs'>;
/** A group while it is edited: numbers may be empty. */
type GroupDraft<T> = { [K in keyof T]: T[K] extends number ? number | null : T[K] };
type AttackDraft = { [G in Group]: GroupDraft<AttackSettings[G]> } & { access_logs: AttackSettings['access_logs'] };
type AccessLog = AttackSettings['access_logs'][number];

/** Most paths a list takes (the schema's limits). */
const maxAuthLogs = 20;
const maxAccessLogs = 50;

function AttackForm({ loaded }: { loaded: AttackSettings }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('firewall', 'edit');
  const [edited, setEdited] = useState<AttackDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const draft: AttackDraft = edited ?? loaded;
  const readOnly = !canEdit;

  const save = useMutation({
    mutationFn: saveAttackSettings,
    onSuccess: (stored, sent) => {
      queryClient.setQueryData(attackKey, stored && 'port_scan' in stored ? stored : sent);
      setEdited(null);
      setErrors({});
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [field]: e.message });
    },
  });

  const update = (next: AttackDraft, clear: string) => {
    setEdited(next);
    setErrors((current) => withoutError(current, clear));
  };
  const patch = <G extends Group>(group: G, key: keyof AttackDraft[G] & string, value: unknown) =>
    update({ ...draft, [group]: { ...draft[group], [key]: value } }, `${group}.${key}`);
  const setLogFiles = (files: string[]) => update({ ...draft, ssh_bruteforce: { ...draft.ssh_bruteforce, log_files: files } }, 'ssh_bruteforce.log_files');
  const setAccessLogs = (logs: AccessLog[]) => update({ ...draft, access_logs: logs }, 'access_logs');

  const onSave = () => {
    const parsed = attackSettingsSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(schemaErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };
  const reset = () => {
    setEdited(null);
    setErrors({});
  };

  const err = (path: string) => errorProps(errors, path, 'fw-attack');
  const number = <G extends Group>(group: G, key: keyof AttackDraft[G] & string, label: string, unit: string) => (
    <Form.Item label={label} {...err(`${group}.${key}`)}>
      <InputNumber<number>
        style={{ width: 170 }}
        value={draft[group][key] as number | null}
        suffix={unit}
        disabled={readOnly}
        onChange={(v) => patch(group, key, v)}
        data-testid={`fw-attack-${group}-${key}`}
      />
    </Form.Item>
  );
  const group = (key: Group, body: ReactNode) => (
    <Card
      size="small"
      title={t(`fw.attack.${key}.title`)}
      extra={
        <Switch
          checked={draft[key].enabled}
          disabled={readOnly}
          checkedChildren={t('common.on')}
          unCheckedChildren={t('common.off')}
          onChange={(on) => patch(key, 'enabled', on)}
          data-testid={`fw-attack-${key}-enabled`}
        />
      }
      data-testid={`fw-attack-${key}`}
    >
      <Typography.Paragraph type="secondary">{t(`fw.attack.${key}.hint`)}</Typography.Paragraph>
      {body}
    </Card>
  );
  const minutes = t('fw.unit.minutes');
  const seconds = t('fw.unit.seconds');
  const perMinute = t('fw.unit.per_minute');

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {group(
        'port_scan',
        <Form layout="inline" style={{ rowGap: 8 }}>
          {number('port_scan', 'ports', t('fw.attack.port_scan.ports'), t('fw.unit.ports'))}
          {number('port_scan', 'seconds', t('fw.attack.within'), seconds)}
          {number('port_scan', 'block_minutes', t('fw.attack.deny_for'), minutes)}
        </Form>,
      )}
      {group(
        'ssh_bruteforce',
        <>
          <Form layout="inline" style={{ rowGap: 8, marginBottom: 16 }}>
            {number('ssh_bruteforce', 'attempts', t('fw.attack.ssh_bruteforce.attempts'), t('fw.unit.times'))}
            {number('ssh_bruteforce', 'seconds', t('fw.attack.within'), seconds)}
            {number('ssh_bruteforce', 'block_minutes', t('fw.attack.deny_for'), minutes)}
            <Form.Item label={t('fw.attack.ssh_bruteforce.journal')}>
              <Switch
                checked={draft.ssh_bruteforce.journal}
                disabled={readOnly}
                onChange={(on) => patch('ssh_bruteforce', 'journal', on)}
                data-testid="fw-attack-ssh_bruteforce-journal"
              />
            </Form.Item>
          </Form>
          <Form layout="vertical">
            <Form.Item label={t('fw.attack.ssh_bruteforce.log_files')} {...err('ssh_bruteforce.log_files')}>
              <Space orientation="vertical" style={{ width: '100%' }}>
                {draft.ssh_bruteforce.log_files.map((file, i) => (
                  <Flex key={i} gap={8} align="start">
                    <Form.Item style={{ flex: 1, marginBottom: 0 }} {...err(`ssh_bruteforce.log_files.${i}`)}>
                      <Input
                        value={file}
                        disabled={readOnly}
                        placeholder={t('fw.attack.log_path_placeholder')}
                        onChange={(e) => setLogFiles(draft.ssh_bruteforce.log_files.map((f, j) => (j === i ? e.target.value : f)))}
                        data-testid={`fw-attack-log-file-${i}`}
                      />
                    </Form.Item>
                    {!readOnly && (
                      <Button
                        icon={<DeleteOutlined />}
                        aria-label={t('fw.attack.remove_path')}
                        onClick={() => setLogFiles(draft.ssh_bruteforce.log_files.filter((_f, j) => j !== i))}
                        data-testid={`fw-attack-log-file-remove-${i}`}
                      />
                    )}
                  </Flex>
                ))}
                {!readOnly && (
                  <Button
                    icon={<PlusOutlined />}
                    disabled={draft.ssh_bruteforce.log_files.length >= maxAuthLogs}
                    onClick={() => setLogFiles([...draft.ssh_bruteforce.log_files, ''])}
                    data-testid="fw-attack-log-file-add"
                  >
                    {t('fw.attack.add_path')}
                  </Button>
                )}
              </Space>
            </Form.Item>
          </Form>
        </>,
      )}
      {group(
        'scan_404',
        <Form layout="inline" style={{ rowGap: 8 }}>
          {number('scan_404', 'per_minute', t('fw.attack.scan_404.per_minute'), perMinute)}
          {number('scan_404', 'block_minutes', t('fw.attack.deny_for'), minutes)}
        </Form>,
      )}
      {group(
        'cc',
        <Form layout="inline" style={{ rowGap: 8 }}>
          {number('cc', 'per_minute', t('fw.attack.cc.per_minute'), perMinute)}
          {number('cc', 'block_minutes', t('fw.attack.deny_for'), minutes)}
        </Form>,
      )}
      <Card size="small" title={t('fw.attack.access_logs.title')} data-testid="fw-attack-access_logs">
        <Typography.Paragraph type="secondary">{t('fw.attack.access_logs.hint')}</Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item {...err('access_logs')}>
            <Space orientation="vertical" style={{ width: '100%' }}>
              {draft.access_logs.map((log, i) => (
                <Flex key={i} gap={8} align="start">
                  <Form.Item style={{ flex: 1, marginBottom: 0 }} {...err(`access_logs.${i}.path`)}>
                    <Input
                      value={log.path}
                      disabled={readOnly}
                      placeholder={t('fw.attack.log_path_placeholder')}
                      onChange={(e) => setAccessLogs(draft.access_logs.map((l, j) => (j === i ? { ...l, path: e.target.value } : l)))}
                      data-testid={`fw-attack-access-path-${i}`}
                    />
                  </Form.Item>
                  <Form.Item style={{ width: 130, marginBottom: 0 }} {...err(`access_logs.${i}.format`)}>
                    <Select
                      value={log.format}
                      disabled={readOnly}
                      onChange={(format: AccessLog['format']) => setAccessLogs(draft.access_logs.map((l, j) => (j === i ? { ...l, format } : l)))}
                      options={accessLogFormats.map((f) => ({ value: f, label: t(`fw.attack.format.${f}`), 'data-testid': `fw-attack-access-format-${i}-${f}` }))}
                      data-testid={`fw-attack-access-format-${i}`}
                    />
                  </Form.Item>
                  {!readOnly && (
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('fw.attack.remove_path')}
                      onClick={() => setAccessLogs(draft.access_logs.filter((_l, j) => j !== i))}
                      data-testid={`fw-attack-access-remove-${i}`}
                    />
                  )}
                </Flex>
              ))}
              {!readOnly && (
                <Button
                  icon={<PlusOutlined />}
                  disabled={draft.access_logs.length >= maxAccessLogs}
                  onClick={() => setAccessLogs([...draft.access_logs, { path: '', format: 'nginx' }])}
                  data-testid="fw-attack-access-add"
                >
                  {t('fw.attack.add_path')}
                </Button>
              )}
            </Space>
          </Form.Item>
        </Form>
      </Card>
      {canEdit && (
        <Space>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={onSave} data-testid="fw-attack-save">
            {t('fw.save')}
          </Button>
          <Button icon={<UndoOutlined />} disabled={edited === null || save.isPending} onClick={reset} data-testid="fw-attack-reset">
            {t('fw.attack.reset')}
          </Button>
        </Space>
      )}
    </Space>
  );
}

function AttackBody() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: attackKey, queryFn: fetchAttackSettings });
  if (settings.data) return <AttackForm loaded={settings.data} />;
  if (settings.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('fw.attack.load_failed')}
        action={<Button size="small" onClick={() => void settings.refetch()} data-testid="fw-attack-retry">{t('common.retry')}</Button>}
        data-testid="fw-attack-load-failed"
      />
    );
  }
  return <Spin data-testid="fw-attack-loading" />;
}

/** Attack protection: port scans, SSH brute force, 404 scans and CC floods, and the web logs read for them. */
export function AttackPage() {
  return (
    <FirewallTab testId="fw-attack-page">
      <AttackBody />
    </FirewallTab>
  );
}
