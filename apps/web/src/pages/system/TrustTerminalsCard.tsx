import { ExportOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { areaName, terminalGraceSeconds, type TerminalRow } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { endTrustTerminal, fetchTrustTerminals, terminalsKey, trustKey } from './trustApi.ts';

/** Beats come every 30 s; the list follows them this often. */
const refreshMs = 15_000;
const stateColors = { signed_in: 'default', trusted: 'green', covered: 'blue', lapsed: 'red' } as const;

/** Where the trust terminal is, as a link and as the command for jump hosts and scripts. */
export function trustTerminalLinks(): { page: string; command: string } {
  const page = new URL('trust', window.location.href.replace(/[?#].*$/, '').replace(/[^/]*$/, '')).href;
  return { page, command: `npx rampart trust --url ${window.location.origin} --user <account>` };
}

/**
 * The trust terminals signed in (issue 28): each one's account, address (and whether it looks
 * shared), area, state, first and last beat, and "End" — its address loses the trust it holds at
 * once and the terminal must sign in again.
 */
export function TrustTerminalsCard() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEnd = useCan('system', 'delete');
  const list = useQuery({ queryKey: terminalsKey, queryFn: fetchTrustTerminals, refetchInterval: refreshMs });
  const rows = list.data?.list ?? [];
  const links = trustTerminalLinks();

  const end = useMutation({
    mutationFn: endTrustTerminal,
    onSettled: () => queryClient.invalidateQueries({ queryKey: trustKey }),
  });
  const confirmEnd = (row: TerminalRow) =>
    modal.confirm({
      title: t('sys_trust.terminals.end_title'),
      content: t('sys_trust.terminals.end_confirm', { account: row.account, ip: row.ip }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('trust-terminal-end-confirm') },
      onOk: () => end.mutateAsync(row.id).catch(() => undefined),
    });

  const columns: TableColumnsType<TerminalRow> = [
    { key: 'account', title: t('sys_trust.terminals.col_account'), dataIndex: 'account' },
    {
      key: 'ip', title: t('sys_trust.terminals.col_ip'), dataIndex: 'ip',
      render: (v: string, r) => (
        <Tooltip title={r.user_agent || undefined}>
          <Typography.Text>{v}</Typography.Text>
          {r.proxied && <Tag color="orange" style={{ marginInlineStart: 8 }}>{t('sys_trust.terminals.proxied')}</Tag>}
        </Tooltip>
      ),
    },
    { key: 'area', title: t('sys_trust.terminals.col_area'), dataIndex: 'areas', render: (v: string[]) => (v.length > 0 ? v.map((code) => areaName(code, lang)).join(' · ') : '-') },
    {
      key: 'state', title: t('sys_trust.terminals.col_state'), dataIndex: 'state', width: 120,
      render: (v: TerminalRow['state'], r) => <Tag color={stateColors[v]} data-testid={`trust-terminal-state-${r.id}`}>{t(`sys_trust.terminals.state.${v}`)}</Tag>,
    },
    { key: 'started', title: t('sys_trust.terminals.col_started'), dataIndex: 'started_at', width: 180, render: (v: number) => formatDateTime(v) },
    { key: 'last', title: t('sys_trust.terminals.col_last_beat'), dataIndex: 'last_beat', width: 180, render: (v: number) => formatDateTime(v) },
    { key: 'until', title: t('sys_trust.terminals.col_until'), dataIndex: 'trusted_until', width: 180, render: (v: number | null) => (v === null ? '-' : formatDateTime(v)) },
  ];
  if (canEnd) {
    columns.push({
      key: 'actions', title: t('sys_trust.terminals.col_actions'), width: 100,
      render: (_v, r) => (
        <Typography.Link type="danger" onClick={() => confirmEnd(r)} data-testid={`trust-terminal-end-${r.id}`}>
          <StopOutlined /> {t('sys_trust.terminals.end')}
        </Typography.Link>
      ),
    });
  }

  return (
    <Card
      title={t('sys_trust.terminals.title')}
      extra={
        <Flex gap={8}>
          <Button icon={<ExportOutlined />} href={links.page} target="_blank" data-testid="trust-terminal-open">{t('sys_trust.terminals.open')}</Button>
          <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()} aria-label={t('sys_trust.terminals.title')} />
        </Flex>
      }
      data-testid="trust-terminals-card"
    >
      <Typography.Paragraph type="secondary">
        {t('sys_trust.terminals.hint', { page: links.page, command: links.command, grace: terminalGraceSeconds / 60 })}
      </Typography.Paragraph>
      <Table<TerminalRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('sys_trust.terminals.empty', { page: links.page }) }}
        onRow={(r) => testId(`trust-terminal-row-${r.id}`)}
      />
    </Card>
  );
}
