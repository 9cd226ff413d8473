import { Alert, App, Button, Card, Flex, Input, Progress, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatchItem, PatchLevel, PatchSettings, PatchState, PatchStatus } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime, formatSize } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { SelectedCount } from '../firewall/parts.tsx';
import { ReasonText } from './parts.tsx';

/* The console's patch calls (GET/POST /audit/patch/…); shapes are the schemas of contracts/audit-patch.ts. */
const patchKey = ['audit', 'patch'] as const;
const fetchPatchState = () => get<PatchState>('/audit/patch/status', { quiet: true });
const selectionBody = (names: readonly string[] | 'all') => (names === 'all' ? { all: true } : { names });

const levelColours: Record<PatchLevel, string> = { emergency: 'red', important: 'orange', optional: 'blue' };
const statusColours: Partial<Record<PatchStatus, string>> = { download_failed: 'red', install_failed: 'red', download_finished: 'cyan', install_finished: 'green', downloading: 'processing', installing: 'processing' };

function AutoUpdate({ settings, disabled }: { settings: PatchSettings; disabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(settings);
  useEffect(() => setDraft(settings), [settings]);
  const save = useMutation({ mutationFn: (body: PatchSettings) => post<PatchSettings>('/audit/patch/settings', body), onSettled: () => void queryClient.invalidateQueries({ queryKey: patchKey }) });
  return (
    <Card size="small" title={t('audit_patch.auto_title')} data-testid="audit-patch-auto">
      <Space wrap>
        <Switch checked={draft.auto_update} disabled={disabled} onChange={(auto_update) => setDraft({ ...draft, auto_update })} data-testid="audit-patch-auto-switch" />
        <Typography.Text>{t('audit_patch.auto_switch')}</Typography.Text>
        <Typography.Text>{t('audit_patch.auto_time')}</Typography.Text>
        <Input style={{ width: 90 }} maxLength={5} value={draft.time} disabled={disabled} onChange={(e) => setDraft({ ...draft, time: e.target.value })} data-testid="audit-patch-auto-time" />
        <Button disabled={disabled} loading={save.isPending} onClick={() => save.mutate(draft)} data-testid="audit-patch-auto-save">{t('audit_patch.auto_save')}</Button>
      </Space>
    </Card>
  );
}

/**
 * The audit's `patch` tab: check for pending updates (checking → finished → again), the list with
 * level, name, description, size, release date and status with apt's progress; download or install
 * a selection or all after a confirmation; the daily auto update. While apt runs every action waits
 * ("execution in progress"); after installs a reboot is suggested.
 */
export function PatchPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const canEdit = useCan('audit_patch', 'edit');
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const state = useQuery({ queryKey: patchKey, queryFn: fetchPatchState, refetchInterval: (q) => (q.state.data?.busy ? 1000 : false) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: patchKey });
  const check = useMutation({ mutationFn: () => post<{ started: boolean }>('/audit/patch/check'), onSettled: refresh });
  const download = useMutation({ mutationFn: (names: string[]) => post<{ started: boolean }>('/audit/patch/download', selectionBody(names)), onSuccess: () => setSelected([]), onSettled: refresh });
  const install = useMutation({ mutationFn: (names: string[] | 'all') => post<{ started: boolean }>('/audit/patch/install', selectionBody(names)), onSuccess: () => setSelected([]), onSettled: refresh });

  const data = state.data;
  const rows = data?.list ?? [];
  const pending = rows.filter((r) => r.status !== 'install_finished');
  const busy = Boolean(data?.busy);
  const checkState = data?.check.state ?? 'never';
  const buttonText = checkState === 'checking' ? t('audit_patch.button.checking') : checkState === 'finished' ? t('audit_patch.button.again') : t('audit_patch.button.check');

  const confirmInstall = (names: string[] | 'all') =>
    modal.confirm({
      title: t('audit_patch.install_title'),
      content: names === 'all' ? t('audit_patch.install_all_confirm', { count: pending.length }) : t('audit_patch.install_confirm', { count: names.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('audit-patch-install-confirm') },
      onOk: () => install.mutateAsync(names).catch(() => undefined),
    });

  const columns: TableColumnsType<PatchItem> = [
    { key: 'level', title: t('audit_patch.col_level'), dataIndex: 'level', width: 90, render: (v: PatchLevel) => <Tag color={levelColours[v]}>{t(`audit_patch.level.${v}`)}</Tag> },
    {
      key: 'name', title: t('audit_patch.col_name'), width: 220,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{r.name}</Typography.Text>
          <Typography.Text type="secondary">{t('audit_patch.versions', { from: r.current_version ?? '-', to: r.new_version })}</Typography.Text>
        </Space>
      ),
    },
    { key: 'description', title: t('audit_patch.col_description'), dataIndex: 'description', width: 260 },
    { key: 'size', title: t('audit_patch.col_size'), dataIndex: 'size', width: 100, render: (v: number) => formatSize(v) },
    { key: 'date', title: t('audit_patch.col_date'), dataIndex: 'release_date', width: 120, render: (v: string | null) => v ?? '-' },
    {
      key: 'status', title: t('audit_patch.col_status'), width: 220,
      render: (_v, r) => (
        <Space orientation="vertical" size={2} data-testid={`audit-patch-status-${r.name}`} data-status={r.status}>
          <Tag color={statusColours[r.status] ?? 'default'}>{t(`audit_patch.status.${r.status}`)}</Tag>
          {r.progress !== null && (r.status === 'downloading' || r.status === 'installing') && <Progress size="small" percent={Math.round(r.progress)} />}
          {r.reason && <ReasonText reason={r.reason} testId={`audit-patch-reason-${r.name}`} />}
        </Space>
      ),
    },
  ];
  if (canEdit) {
    columns.push({
      key: 'actions', title: '', width: 90, fixed: 'end',
      render: (_v, r) => r.status !== 'install_finished' && <Button size="small" disabled={busy} onClick={() => confirmInstall([r.name])} data-testid={`audit-patch-install-${r.name}`}>{t('audit_patch.install_one')}</Button>,
    });
  }

  if (data && !data.available) return <Alert type="info" showIcon title={t('audit_patch.not_available')} data-testid="audit-patch-unavailable" />;

  return (
    <Flex vertical gap={16} data-testid="audit-patch-page">
      <Typography.Paragraph type="secondary">{t('audit_patch.intro')}</Typography.Paragraph>
      <Space wrap>
        {canEdit && (
          <Button type="primary" loading={checkState === 'checking'} disabled={busy && checkState !== 'checking'} onClick={() => check.mutate()} data-testid="audit-patch-check">
            {buttonText}
          </Button>
        )}
        <Tag data-testid="audit-patch-state" data-state={checkState}>{t(`audit_patch.state.${checkState}`)}</Tag>
        {data?.check.checked_at && <Typography.Text type="secondary">{t('audit_patch.checked_at', { time: formatDateTime(data.check.checked_at) })}</Typography.Text>}
      </Space>
      {busy && <Alert type="info" showIcon title={t('audit_patch.busy')} data-testid="audit-patch-busy" />}
      {data?.check.error && (
        <Alert type="error" showIcon title={<ReasonText reason={data.check.error} />} data-testid="audit-patch-check-error" />
      )}
      {data?.last_job?.error && !busy && (
        <Alert type="warning" showIcon title={<ReasonText reason={data.last_job.error} />} data-testid="audit-patch-job-error" />
      )}
      {data?.reboot_required && <Alert type="warning" showIcon title={t('audit_patch.reboot')} data-testid="audit-patch-reboot" />}
      {canEdit && (
        <Space wrap>
          <Button disabled={busy || selected.length === 0} onClick={() => download.mutate(selected)} data-testid="audit-patch-download">{t('audit_patch.download')}</Button>
          <Button danger disabled={busy || selected.length === 0} onClick={() => confirmInstall(selected)} data-testid="audit-patch-install">{t('audit_patch.install')}</Button>
          <Button danger type="primary" disabled={busy || pending.length === 0} onClick={() => confirmInstall('all')} data-testid="audit-patch-install-all">{t('audit_patch.install_all')}</Button>
          <SelectedCount prefix="audit-patch" count={selected.length} />
        </Space>
      )}
      <Table<PatchItem>
        rowKey="name"
        columns={columns}
        dataSource={rows}
        loading={state.isFetching && !data}
        scroll={{ x: 1100 }}
        pagination={false}
        locale={{
          emptyText: checkState === 'never'
            ? <EmptyHint testId="audit-patch-empty" text={t('audit_patch.empty_never', { button: t('audit_patch.button.check') })} next={t('audit_patch.empty_next')} />
            : <EmptyHint testId="audit-patch-empty" text={t('audit_patch.empty')} next={t('audit_patch.empty_next')} />,
        }}
        rowSelection={canEdit ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), getCheckboxProps: (r) => ({ disabled: r.status === 'install_finished', ...testId(`audit-patch-check-${r.name}`) }) } : undefined}
        onRow={(r) => ({ 'data-testid': `audit-patch-row-${r.name}` }) as HTMLAttributes<HTMLElement>}
        data-testid="audit-patch-list"
      />
      {data && <AutoUpdate settings={data.settings} disabled={!canEdit} />}
    </Flex>
  );
}
