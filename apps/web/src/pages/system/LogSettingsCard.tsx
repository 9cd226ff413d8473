import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Flex, Form, Input, InputNumber, Radio, Result, Select, Space, Spin, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  eventCategories, languages, logModes, logSettingsSchema, syslogCharsets, syslogProtocols, syslogTransports,
  type EventCategory, type LogSettings, type SyslogServer,
} from '@rampart/contracts';
import { fetchLogSettings, saveLogSettings } from '../../api/endpoints.ts';
import { errorField } from '../../api/errors.ts';
import { errorProps, issuesToErrors, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';

export const logSettingsKey = ['system', 'log'] as const;
/** The schema's limit on syslog servers. */
export const maxSyslogServers = 10;
const defaultSyslogPort = 514;

/** Number inputs may be empty while the user types; the schema says what is wrong with that. */
type ServerDraft = Omit<SyslogServer, 'port'> & { port: number | null };
type Draft = Omit<LogSettings, 'keep_days' | 'disk_limit_mb' | 'syslog'> & {
  keep_days: number | null;
  disk_limit_mb: number | null;
  syslog: Omit<LogSettings['syslog'], 'servers'> & { servers: ServerDraft[] };
};

function LogSettingsForm({ initial }: { initial: LogSettings }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveLogSettings,
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(logSettingsKey, saved);
    },
    onError: (e) => {
      // HTTP 400 names the field it refused (`syslog.servers.0.host`): show the message there.
      const field = errorField(e);
      if (field) setErrors({ [field]: e.message });
    },
  });

  const syslog = draft.syslog;
  const servers = syslog.servers;
  const change = (path: string, next: Draft) => {
    setDraft(next);
    // A changed field loses its message; so does the list when a server changes (duplicates, count).
    setErrors((e) => withoutError(path.startsWith('syslog.servers') ? withoutError(e, 'syslog.servers') : e, path));
  };
  const setSyslog = (patch: Partial<Draft['syslog']>, path: string) => change(path, { ...draft, syslog: { ...syslog, ...patch } });
  const setServer = (index: number, patch: Partial<ServerDraft>) =>
    setSyslog({ servers: servers.map((s, i) => (i === index ? { ...s, ...patch } : s)) }, `syslog.servers.${index}`);
  const err = (path: string) => errorProps(errors, path, 'logset');

  const submit = () => {
    const parsed = logSettingsSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <Form layout="vertical" style={{ maxWidth: 760 }} disabled={!canEdit} onFinish={submit} data-testid="logset-form">
      <Form.Item label={t('logset.mode_label')} extra={t(`logset.mode_hint.${draft.mode}`)} {...err('mode')}>
        <Radio.Group
          value={draft.mode}
          onChange={(e) => change('mode', { ...draft, mode: e.target.value as Draft['mode'] })}
          options={logModes.map((m) => ({ value: m, label: <span data-testid={`logset-mode-${m}`}>{t(`logset.mode.${m}`)}</span> }))}
        />
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item label={t('logset.keep_days')} extra={t('logset.keep_days_hint')} {...err('keep_days')}>
          <InputNumber
            style={{ width: 180 }}
            value={draft.keep_days}
            onChange={(v) => change('keep_days', { ...draft, keep_days: v })}
            suffix={t('logset.days')}
            data-testid="logset-keep-days"
          />
        </Form.Item>
        <Form.Item label={t('logset.disk_limit')} extra={t('logset.disk_limit_hint')} {...err('disk_limit_mb')}>
          <InputNumber
            style={{ width: 180 }}
            value={draft.disk_limit_mb}
            onChange={(v) => change('disk_limit_mb', { ...draft, disk_limit_mb: v })}
            suffix={t('logset.mb')}
            data-testid="logset-disk-limit"
          />
        </Form.Item>
      </Flex>

      <Typography.Title level={5}>{t('logset.syslog_title')}</Typography.Title>
      <Form.Item label={t('logset.syslog_enabled')} {...err('syslog.enabled')}>
        <Switch checked={syslog.enabled} onChange={(enabled) => setSyslog({ enabled }, 'syslog.enabled')} data-testid="syslog-enabled" />
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item label={t('logset.protocol')} {...err('syslog.protocol')}>
          <Radio.Group
            value={syslog.protocol}
            onChange={(e) => setSyslog({ protocol: e.target.value as Draft['syslog']['protocol'] }, 'syslog.protocol')}
            options={syslogProtocols.map((p) => ({ value: p, label: <span data-testid={`logset-protocol-${p}`}>{t(`logset.protocols.${p}`)}</span> }))}
          />
        </Form.Item>
        <Form.Item label={t('logset.charset')} {...err('syslog.charset')}>
          <Select
            style={{ width: 200 }}
            value={syslog.charset}
            onChange={(charset: Draft['syslog']['charset']) => setSyslog({ charset }, 'syslog.charset')}
            options={syslogCharsets.map((c) => ({ value: c, label: t(`logset.charsets.${c}`), 'data-testid': `logset-charset-${c}` }))}
            data-testid="logset-charset"
          />
        </Form.Item>
        <Form.Item label={t('logset.syslog_lang')} {...err('syslog.lang')}>
          <Radio.Group
            value={syslog.lang}
            onChange={(e) => setSyslog({ lang: e.target.value as Draft['syslog']['lang'] }, 'syslog.lang')}
            options={languages.map((l) => ({ value: l, label: <span data-testid={`logset-lang-${l}`}>{t(`language.${l}`)}</span> }))}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('logset.kinds')} {...err('syslog.kinds')}>
        <Checkbox.Group<EventCategory>
          value={syslog.kinds}
          onChange={(kinds) => setSyslog({ kinds: eventCategories.filter((k) => kinds.includes(k)) }, 'syslog.kinds')}
          options={eventCategories.map((k) => ({ value: k, label: <span data-testid={`logset-kind-${k}`}>{t(`logset.kind.${k}`)}</span> }))}
        />
      </Form.Item>
      <Form.Item label={t('logset.servers', { count: servers.length, max: maxSyslogServers })} {...err('syslog.servers')}>
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="syslog-servers">
          {servers.map((server, i) => (
            <Flex key={i} gap={8} align="flex-start" wrap data-testid={`syslog-server-${i}`}>
              <Form.Item style={{ marginBottom: 0 }} {...err(`syslog.servers.${i}.host`)}>
                <Input
                  style={{ width: 240 }}
                  value={server.host}
                  placeholder={t('logset.host_placeholder')}
                  aria-label={t('logset.host')}
                  onChange={(e) => setServer(i, { host: e.target.value })}
                  data-testid={`syslog-host-${i}`}
                />
              </Form.Item>
              <Form.Item style={{ marginBottom: 0 }} {...err(`syslog.servers.${i}.port`)}>
                <InputNumber
                  style={{ width: 110 }}
                  value={server.port}
                  aria-label={t('logset.port')}
                  onChange={(port) => setServer(i, { port })}
                  data-testid={`syslog-port-${i}`}
                />
              </Form.Item>
              <Radio.Group
                optionType="button"
                value={server.transport}
                onChange={(e) => setServer(i, { transport: e.target.value as ServerDraft['transport'] })}
                options={syslogTransports.map((tr) => ({ value: tr, label: <span data-testid={`syslog-transport-${i}-${tr}`}>{t(`logset.transport.${tr}`)}</span> }))}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('logset.remove_server')}
                onClick={() => change('syslog.servers', { ...draft, syslog: { ...syslog, servers: servers.filter((_s, j) => j !== i) } })}
                data-testid={`syslog-remove-${i}`}
              />
            </Flex>
          ))}
          <Button
            icon={<PlusOutlined />}
            disabled={servers.length >= maxSyslogServers}
            onClick={() => change('syslog.servers', { ...draft, syslog: { ...syslog, servers: [...servers, { host: '', port: defaultSyslogPort, transport: 'udp' }] } })}
            data-testid="syslog-add-server"
          >
            {t('logset.add_server')}
          </Button>
        </Space>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="logset-save">
        {t('logset.save')}
      </Button>
    </Form>
  );
}

/** The log settings card: store mode, keep days, disk alert and syslog forwarding (GET/POST /system/log). */
export function LogSettingsCard() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: logSettingsKey, queryFn: fetchLogSettings });
  return (
    <Card title={t('logset.title')} data-testid="logset-card">
      {settings.data ? (
        <LogSettingsForm initial={settings.data} />
      ) : settings.isError ? (
        <Result status="warning" title={settings.error.message} />
      ) : (
        <Spin />
      )}
    </Card>
  );
}
