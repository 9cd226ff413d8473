import { LogoutOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OnlineTerminal } from '@rampart/contracts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { useNow } from '../firewall/forms.ts';
import { accountsKey, fetchTerminals, signOutTerminal, terminalListKey } from './accountsApi.ts';

/** The list follows sign-ins and expiries on its own this often; the elapsed column ticks with it. */
const refreshMs = 30_000;

/** A duration in whole minutes (rounded down: "online for" never runs ahead of the clock). */
export function useSpanText(): (ms: number) => string {
  const { t } = useTranslation();
  return (ms) => {
    const minutes = Math.floor(Math.max(0, ms) / 60_000);
    const d = Math.floor(minutes / 1440);
    const h = Math.floor((minutes % 1440) / 60);
    const m = minutes % 60;
    if (minutes === 0) return t('sys_user.span_under_minute');
    if (d > 0) return t('sys_user.span_days', { d, h, m });
    if (h > 0) return t('sys_user.span_hours', { h, m });
    return t('sys_user.span_minutes', { m });
  };
}

/**
 * Live sessions of every account (GET /system/user/online/list) with sign-out. Signing out one's
 * own session is allowed after a warning; the next call then answers 401 and the page goes to sign-in.
 */
export function OnlineTerminalsCard() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canSignOut = useCan('system', 'delete');
  const spanText = useSpanText();
  const now = useNow(refreshMs);
  const list = useQuery({ queryKey: terminalListKey, queryFn: fetchTerminals, refetchInterval: refreshMs });
  const rows = list.data?.list ?? [];
  // elapsed_ms is at the console's clock when the list was read; add what passed here since.
  const sinceRead = Math.max(0, now - list.dataUpdatedAt);

  const signOut = useMutation({
    mutationFn: signOutTerminal,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
  const confirmSignOut = (row: OnlineTerminal) =>
    modal.confirm({
      title: t('sys_user.sign_out_title'),
      content: row.current ? t('sys_user.sign_out_self_confirm') : t('sys_user.sign_out_confirm', { name: row.username, ip: row.ip }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('terminal-sign-out-confirm') },
      onOk: () => signOut.mutateAsync(row.id).catch(() => undefined),
    });

  const columns: TableColumnsType<OnlineTerminal> = [
    {
      key: 'account', title: t('sys_user.terminal_account'), dataIndex: 'username',
      render: (v: string, r) => (
        <>
          <Typography.Text>{v}</Typography.Text>
          {r.current && <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid={`terminal-current-${r.id}`}>{t('sys_user.current')}</Tag>}
        </>
      ),
    },
    { key: 'ip', title: t('sys_user.client_ip'), dataIndex: 'ip' },
    {
      key: 'terminal', title: t('sys_user.terminal'), dataIndex: 'terminal',
      render: (v: string, r) => <Tooltip title={r.user_agent || undefined}>{v || t('sys_user.unknown_terminal')}</Tooltip>,
    },
    { key: 'login', title: t('sys_user.login_time'), dataIndex: 'login_at', width: 180, render: (v: number) => formatDateTime(v) },
    {
      key: 'expires', title: t('sys_user.expires'), dataIndex: 'expires_at', width: 180,
      render: (v: number | null) => (v === null ? t('sys_user.expires_never') : formatDateTime(v)),
    },
    { key: 'elapsed', title: t('sys_user.elapsed'), dataIndex: 'elapsed_ms', width: 170, render: (v: number) => spanText(v + sinceRead) },
  ];
  if (canSignOut) {
    columns.push({
      key: 'actions', title: t('sys_user.actions'), width: 110,
      render: (_v, r) => (
        <Typography.Link type="danger" onClick={() => confirmSignOut(r)} data-testid={`terminal-sign-out-${r.id}`}>
          <LogoutOutlined /> {t('sys_user.sign_out')}
        </Typography.Link>
      ),
    });
  }

  return (
    <Card
      title={t('sys_user.terminals_title')}
      extra={
        <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void queryClient.invalidateQueries({ queryKey: accountsKey })} data-testid="terminals-refresh">
          {t('sys_user.refresh')}
        </Button>
      }
      data-testid="terminals-card"
    >
      <Table<OnlineTerminal>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: 960 }}
        locale={{ emptyText: t('sys_user.empty_terminals') }}
        onRow={(r) => testId(`terminal-row-${r.id}`)}
        data-testid="terminals-table"
      />
    </Card>
  );
}
