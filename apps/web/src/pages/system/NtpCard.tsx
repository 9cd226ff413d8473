import { Alert, Button, Card, Flex, Form, Input, InputNumber, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localDateTime, ntpSettingsSchema, type NtpStatus, type NtpView } from '@rampart/contracts';
import { errorField } from '../../api/errors.ts';
import { errorProps, issuesToErrors, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { ntpKey, saveNtp } from './basicApi.ts';

const stateColor: Record<NtpStatus['state'], string> = { idle: 'default', fetching: 'processing', success: 'success', failure: 'error' };

/** Servers as typed, one per line; blank lines do not count. */
const serverLines = (text: string) => text.split('\n').map((s) => s.trim()).filter((s) => s !== '');

/** The last sync (or the one under way): state, and the server's time and offset, or why it failed. */
function SyncStatus({ status, fetching }: { status: NtpStatus; fetching: boolean }) {
  const { t } = useTranslation();
  const state = fetching ? 'fetching' : status.state;
  return (
    <Space orientation="vertical" size={4} data-testid="ntp-status" data-state={state}>
      <Space>
        {state === 'fetching' && <Spin size="small" />}
        <Tag color={stateColor[state]} data-testid={`ntp-state-${state}`}>{t(`sys_basic.ntp.state.${state}`)}</Tag>
      </Space>
      {state === 'success' && (
        <>
          {status.time !== null && <Typography.Text data-testid="ntp-time">{t('sys_basic.ntp.result_time', { time: localDateTime(status.time) })}</Typography.Text>}
          <Typography.Text type="secondary">{t('sys_basic.ntp.result_offset', { offset: status.offset_ms ?? 0, delay: status.delay_ms ?? 0 })}</Typography.Text>
          <Typography.Text type="secondary" data-testid="ntp-server">{t('sys_basic.ntp.result_server', { server: status.server })}</Typography.Text>
          {!status.clock_set && <Typography.Text type="warning">{t('sys_basic.ntp.clock_not_set')}</Typography.Text>}
        </>
      )}
      {state === 'failure' && (
        <Alert
          type="error"
          showIcon
          title={t('sys_basic.ntp.failed')}
          description={status.error ? t('sys_basic.ntp.detail', { error: status.error }) : undefined}
          data-testid="ntp-failed"
        />
      )}
      {state !== 'fetching' && status.at !== null && <Typography.Text type="secondary">{t('sys_basic.ntp.result_at', { at: localDateTime(status.at) })}</Typography.Text>}
    </Space>
  );
}

/** NTP: servers (one per line), the interval (default 60 min, at least 1), automatic sync, and "sync now". */
export function NtpCard({ view }: { view: NtpView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [enabled, setEnabled] = useState(view.settings.enabled);
  const [serversText, setServersText] = useState(view.settings.servers.join('\n'));
  const [interval, setIntervalMinutes] = useState<number | null>(view.settings.interval_minutes);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveNtp,
    onSuccess: (result) => {
      if (result) queryClient.setQueryData(ntpKey, result);
    },
    onError: (e) => {
      // A refused field (HTTP 400) is shown on it; a failed sync is read back to show its state and reason.
      const field = errorField(e);
      if (field) setErrors(fieldErrors({ [field.replace(/^settings\./, '')]: e.message }));
      else void queryClient.invalidateQueries({ queryKey: ntpKey });
    },
  });

  /** A message on one server (`servers.3`) is shown on the list, naming its line. */
  const fieldErrors = (raw: FieldErrors): FieldErrors => {
    const out: Record<string, string> = {};
    for (const [path, message] of Object.entries(raw)) {
      const line = /^servers\.(\d+)$/.exec(path);
      const key = line ? 'servers' : path;
      if (key in out) continue;
      out[key] = line ? t('sys_basic.ntp.line_error', { line: Number(line[1]) + 1, message }) : message;
    }
    return out;
  };
  const submit = (sync: boolean) => {
    const parsed = ntpSettingsSchema.safeParse({ enabled, servers: serverLines(serversText), interval_minutes: interval });
    if (!parsed.success) {
      setErrors(fieldErrors(issuesToErrors(parsed.error.issues, lang)));
      return;
    }
    setErrors({});
    save.mutate({ settings: parsed.data, sync });
  };
  const syncing = save.isPending && save.variables.sync;
  const err = (path: string) => errorProps(errors, path, 'ntp');

  return (
    <Card title={t('sys_basic.ntp.title')} data-testid="ntp-card">
      <Form layout="vertical" style={{ maxWidth: 760 }} disabled={!canEdit} onFinish={() => submit(false)}>
        <Form.Item label={t('sys_basic.ntp.enabled')} {...err('enabled')}>
          <Switch checked={enabled} onChange={setEnabled} data-testid="ntp-enabled" />
        </Form.Item>
        <Form.Item label={t('sys_basic.ntp.servers')} extra={t('sys_basic.ntp.servers_hint')} {...err('servers')}>
          <Input.TextArea
            rows={4}
            style={{ width: 420 }}
            value={serversText}
            onChange={(e) => {
              setServersText(e.target.value);
              setErrors({});
            }}
            data-testid="ntp-servers"
          />
        </Form.Item>
        <Form.Item label={t('sys_basic.ntp.interval')} {...err('interval_minutes')}>
          <InputNumber
            style={{ width: 180 }}
            value={interval}
            onChange={(v) => {
              setIntervalMinutes(v);
              setErrors({});
            }}
            suffix={t('sys_basic.ntp.interval_unit')}
            data-testid="ntp-interval"
          />
        </Form.Item>
        <Form.Item label={t('sys_basic.ntp.state_label')}>
          <SyncStatus status={view.status} fetching={syncing || view.status.state === 'fetching'} />
        </Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" loading={save.isPending && !save.variables.sync} disabled={syncing} data-testid="ntp-save">
            {t('sys_basic.save')}
          </Button>
          <Button onClick={() => submit(true)} loading={syncing} disabled={save.isPending && !syncing} data-testid="ntp-sync">
            {t('sys_basic.ntp.sync_now')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
