import { Flex, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditUser } from '@rampart/contracts';
import { EmptyHint, searchEmpty } from '../../components/EmptyHint.tsx';
import { formatDateTime } from '../../utils/format.ts';
import { auditKey } from './api.ts';
import { fetchAuditUsers, type InventoryQuery } from './inventory-api.ts';
import { FindingExplanations, FindingTags, InventoryToolbar } from './inventory-parts.tsx';

const statusColours: Record<AuditUser['status'], string> = { normal: 'green', password_locked: 'default', expired: 'orange', no_login: 'default' };
const sshColours: Record<AuditUser['remote']['ssh'], string> = { allowed: 'green', denied: 'default', no_credential: 'default', no_shell: 'default', no_sshd: 'default' };

function LastLogin({ user }: { user: AuditUser }) {
  const { t } = useTranslation();
  const { at, from, known } = user.last_login;
  if (!known) return <Typography.Text type="secondary">{t('audit_inv.account.unknown')}</Typography.Text>;
  if (at === null) return <Typography.Text type="secondary">{t('audit_inv.account.never')}</Typography.Text>;
  return (
    <Space orientation="vertical" size={0}>
      <span>{formatDateTime(at)}</span>
      {from && <Typography.Text type="secondary">{t('audit_inv.account.from', { host: from })}</Typography.Text>}
    </Space>
  );
}

function Remote({ user }: { user: AuditUser }) {
  const { t } = useTranslation();
  const { ssh, methods, rule } = user.remote;
  return (
    <Space orientation="vertical" size={2} data-testid={`audit-account-remote-${user.name}`} data-ssh={ssh}>
      <Space size={4} wrap>
        <Tag color={sshColours[ssh]}>{t(`audit_inv.account.ssh.${ssh}`)}</Tag>
        {methods.map((m) => <Tag key={m}>{t(`audit_inv.account.method.${m}`)}</Tag>)}
      </Space>
      {rule && <Typography.Text type="secondary" code>{rule}</Typography.Text>}
      <Typography.Text type="secondary">{user.shell}</Typography.Text>
    </Space>
  );
}

/** The `account` tab: every system account with its status, groups, last login, remote-login permission and findings. */
export function AccountAuditPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<InventoryQuery>({ findings_only: false, keyword: '', page: 1, size: 20 });
  const users = useQuery({ queryKey: [...auditKey, 'users', query], queryFn: () => fetchAuditUsers(query), placeholderData: keepPreviousData });

  const columns: TableColumnsType<AuditUser> = [
    {
      key: 'name', title: t('audit_inv.account.col_name'), width: 160,
      render: (_v, u) => (
        <Space size={4} wrap>
          <Typography.Text strong>{u.name}</Typography.Text>
          {u.sudo && <Tag color="purple">{t('audit_inv.account.sudo')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'status', title: t('audit_inv.account.col_status'), width: 150,
      render: (_v, u) => (
        <Space orientation="vertical" size={2}>
          <Tag color={statusColours[u.status]} data-testid={`audit-account-status-${u.name}`}>{t(`audit_inv.account.status.${u.status}`)}</Tag>
          <Typography.Text type="secondary">{t('audit_inv.account.password', { kind: t(`audit_inv.account.hash_kind.${u.hash_kind}`) })}</Typography.Text>
        </Space>
      ),
    },
    { key: 'group', title: t('audit_inv.account.col_group'), width: 160, render: (_v, u) => [u.group, ...u.groups].join(', ') },
    { key: 'last', title: t('audit_inv.account.col_last_login'), width: 170, render: (_v, u) => <LastLogin user={u} /> },
    { key: 'description', title: t('audit_inv.account.col_description'), dataIndex: 'description', width: 160, render: (v: string) => v || '-' },
    { key: 'remote', title: t('audit_inv.account.col_remote'), width: 220, render: (_v, u) => <Remote user={u} /> },
    { key: 'findings', title: t('audit_inv.account.col_findings'), width: 220, render: (_v, u) => <FindingTags tab="account" findings={u.findings} testId={`audit-account-findings-${u.name}`} /> },
  ];
  const empty = query.keyword
    ? searchEmpty(t, query.keyword)
    : query.findings_only
    ? { text: t('audit_inv.account.empty_filtered'), next: t('audit_inv.account.empty_filtered_next') }
    : { text: t('audit_inv.account.empty'), next: t('audit_inv.account.empty_next') };

  return (
    <Flex vertical gap={16} data-testid="audit-account-page">
      <InventoryToolbar
        prefix="audit-account"
        findingsOnly={query.findings_only}
        onFindingsOnly={(on) => setQuery((q) => ({ ...q, findings_only: on, page: 1 }))}
        onSearch={(keyword) => setQuery((q) => ({ ...q, keyword: keyword.trim(), page: 1 }))}
        onRefresh={() => void users.refetch()}
        loading={users.isFetching}
        data={users.data}
      />
      <Table<AuditUser>
        rowKey="name"
        columns={columns}
        dataSource={users.data?.list ?? []}
        loading={users.isFetching}
        scroll={{ x: 1200 }}
        locale={{ emptyText: <EmptyHint {...empty} testId="audit-account-empty" /> }}
        onRow={(u) => ({ 'data-testid': `audit-account-row-${u.name}` }) as HTMLAttributes<HTMLElement>}
        expandable={{
          expandedRowRender: (u) => (
            <Flex vertical gap={8} data-testid={`audit-account-detail-${u.name}`}>
              <Typography.Text type="secondary">{t('audit_inv.account.details', { uid: u.uid, gid: u.gid, home: u.home, shell: u.shell })}</Typography.Text>
              {u.created_at !== null && <Typography.Text type="secondary">{t('audit_inv.account.created', { time: formatDateTime(u.created_at) })}</Typography.Text>}
              <FindingExplanations tab="account" findings={u.findings} />
            </Flex>
          ),
        }}
        pagination={{ current: query.page, pageSize: query.size, total: users.data?.total ?? 0, showSizeChanger: true, onChange: (page, size) => setQuery((q) => ({ ...q, page, size })) }}
        data-testid="audit-account-table"
      />
    </Flex>
  );
}
