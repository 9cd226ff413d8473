import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Space, Switch, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { panelAccountAddBodySchema, panelAccountEditBodySchema, type PanelAccount, type PanelAccountAddBody, type PanelAccountEditBody } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { feedback } from '../../api/feedback.ts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { Markup } from '../../components/Markup.tsx';
import { issuesToErrors, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { AccountModal, draftOfAccount, newAccountDraft, type AccountDraft } from './AccountModal.tsx';
import { accountListKey, accountsKey, addAccount, deleteAccount, editAccount, fetchAccounts } from './accountsApi.ts';
import { OnlineTerminalsCard } from './OnlineTerminalsCard.tsx';

interface Editing {
  /** The account being edited; undefined for a new one. */
  account: PanelAccount | undefined;
  draft: AccountDraft;
}

/** The edit sends only what changed (a blank password keeps the stored one). */
function changesOf(account: PanelAccount, draft: AccountDraft): PanelAccountEditBody {
  const body: Record<string, unknown> = {};
  if (draft.username.trim() !== account.username) body.username = draft.username;
  if (draft.password !== '') body.password = draft.password;
  if (draft.role !== account.role) body.role = draft.role;
  if (draft.status !== account.status) body.status = draft.status;
  if (draft.remark.trim() !== account.remark) body.remark = draft.remark;
  return body as PanelAccountEditBody;
}

/** System settings, user tab: panel accounts (add, edit, enable/disable, delete) and the online terminals. */
export function AccountsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('system', 'add');
  const canEdit = useCan('system', 'edit');
  const canDelete = useCan('system', 'delete');
  const list = useQuery({ queryKey: accountListKey, queryFn: fetchAccounts });
  const rows = list.data?.list ?? [];
  const [editing, setEditing] = useState<Editing | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // Either list may change with any account change (online flags, ended sessions).
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountsKey });

  const save = useMutation({
    mutationFn: (call: { add: PanelAccountAddBody } | { id: number; edit: PanelAccountEditBody }) =>
      'add' in call ? addAccount(call.add) : editAccount(call.id, call.edit, { errorModal: false }),
    onSuccess: () => {
      setEditing(null);
      setErrors({});
    },
    onError: (e) => {
      // Bad input (400) and a taken name (code 2) name their field: the message goes there, in the
      // user's language already. Other refusals (lock-out, a deleted account) get the usual modal.
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [field]: e.message });
      else if (isApiError(e) && e.kind === 'envelope') feedback().error({ content: <Markup html={e.message} /> });
    },
    onSettled: refresh,
  });
  const change = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSettled: refresh,
  });

  const onSave = (draft: AccountDraft) => {
    if (!editing) return;
    setEditing({ ...editing, draft });
    const { account } = editing;
    // The schemas the console checks with, so the messages match what it would answer.
    const parsed = account ? panelAccountEditBodySchema.safeParse(changesOf(account, draft)) : panelAccountAddBodySchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    save.mutate(account ? { id: account.id, edit: parsed.data } : { add: parsed.data as PanelAccountAddBody });
  };
  const open = (account: PanelAccount | undefined) => {
    setErrors({});
    setEditing({ account, draft: account ? draftOfAccount(account) : newAccountDraft() });
  };
  const confirmDelete = (account: PanelAccount) =>
    modal.confirm({
      title: t('sys_user.delete_title'),
      content: t('sys_user.delete_confirm', { name: account.username }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('account-delete-confirm') },
      onOk: () => change.mutateAsync(() => deleteAccount(account.id)).catch(() => undefined),
    });
  const selfLocked = (content: ReactNode, self: boolean) => (self ? <Tooltip title={t('sys_user.self_locked')}>{content}</Tooltip> : content);

  const columns: TableColumnsType<PanelAccount> = [
    {
      key: 'username', title: t('sys_user.username'), dataIndex: 'username',
      render: (v: string, r) => (
        <>
          <Typography.Text strong={r.self}>{v}</Typography.Text>
          {r.self && <Tag style={{ marginInlineStart: 8 }} data-testid={`account-self-${r.id}`}>{t('sys_user.you')}</Tag>}
        </>
      ),
    },
    { key: 'role', title: t('sys_user.role'), dataIndex: 'role', render: (v: PanelAccount['role'], r) => <span data-testid={`account-role-name-${r.id}`}>{t(`role.${v}`)}</span> },
    {
      key: 'status', title: t('sys_user.status'), dataIndex: 'status', width: 110,
      render: (v: 0 | 1, r) =>
        selfLocked(
          <Switch
            size="small"
            checked={v === 1}
            disabled={!canEdit || r.self}
            loading={change.isPending}
            checkedChildren={t('sys_user.enabled')}
            unCheckedChildren={t('sys_user.disabled')}
            onChange={(on) => change.mutate(() => editAccount(r.id, { status: on ? 1 : 0 }))}
            data-testid={`account-switch-${r.id}`}
          />,
          r.self,
        ),
    },
    { key: 'remark', title: t('sys_user.remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
    {
      key: 'last_login', title: t('sys_user.last_login'), dataIndex: 'last_login_at', width: 180,
      render: (v: number | null) => (v === null ? t('sys_user.never') : formatDateTime(v)),
    },
    { key: 'last_ip', title: t('sys_user.last_login_ip'), dataIndex: 'last_login_ip', render: (v: string | null) => v ?? '-' },
    {
      key: 'online', title: t('sys_user.online'), dataIndex: 'online', width: 90,
      render: (v: boolean, r) => (
        <Tag color={v ? 'green' : 'default'} data-testid={`account-online-${r.id}`}>{t(v ? 'sys_user.online' : 'sys_user.offline')}</Tag>
      ),
    },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('sys_user.actions'), width: 130,
      render: (_v, r) => (
        <Space>
          {canEdit && (
            <Typography.Link onClick={() => open(r)} data-testid={`account-edit-${r.id}`}>
              {t('sys_user.edit')}
            </Typography.Link>
          )}
          {canDelete &&
            (r.self ? (
              selfLocked(<Typography.Text disabled data-testid={`account-delete-${r.id}`}>{t('sys_user.delete')}</Typography.Text>, true)
            ) : (
              <Typography.Link type="danger" onClick={() => confirmDelete(r)} data-testid={`account-delete-${r.id}`}>
                {t('sys_user.delete')}
              </Typography.Link>
            ))}
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={16} data-testid="accounts-page">
      <Card
        title={t('sys_user.accounts_title')}
        extra={
          canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined)} data-testid="account-add">
              {t('sys_user.add')}
            </Button>
          )
        }
      >
        <Table<PanelAccount>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isFetching}
          pagination={false}
          scroll={{ x: 1000 }}
          locale={{ emptyText: <EmptyHint text={t('empty.sys.accounts')} /> }}
          onRow={(r) => testId(`account-row-${r.username}`)}
          data-testid="accounts-table"
        />
      </Card>
      <OnlineTerminalsCard />
      {editing && (
        <AccountModal
          key={editing.account?.id ?? 'new'}
          initial={editing.draft}
          editing={editing.account !== undefined}
          self={editing.account?.self ?? false}
          errors={errors}
          saving={save.isPending}
          onErrors={setErrors}
          onSave={onSave}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}
