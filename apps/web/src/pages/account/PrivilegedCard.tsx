import { Alert, App, Button, Card, Descriptions, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountPrivileged, PrivilegedAccount } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { accountKey, setRootLogin } from './api.ts';

/**
 * "Change the system administrator name", read for Linux: the accounts that hold root's power, and
 * direct root SSH login switched off only when another sudo account can sign in (the agent checks).
 */
export function PrivilegedCard({ view }: { view: AccountPrivileged }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('account', 'edit');
  const change = useMutation({ mutationFn: setRootLogin, onSettled: () => void queryClient.invalidateQueries({ queryKey: accountKey }) });
  const { root_login: root } = view;

  const columns: TableColumnsType<PrivilegedAccount> = [
    { key: 'name', title: t('account.name'), dataIndex: 'name' },
    { key: 'uid', title: t('account.uid'), dataIndex: 'uid', width: 80 },
    { key: 'reasons', title: t('account.reasons'), dataIndex: 'reasons', render: (reasons: PrivilegedAccount['reasons']) => reasons.map((r) => <Tag key={r}>{t(`account.reason.${r}`)}</Tag>) },
    {
      key: 'login', title: t('account.sign_in'),
      render: (_, row) => (
        <span data-testid={`account-login-${row.name}`}>
          {[row.password && t('account.by_password'), row.keys && t('account.by_key')].filter(Boolean).join(t('account.separator')) || t('account.cannot_sign_in')}
        </span>
      ),
    },
  ];

  const confirmDisable = () =>
    modal.confirm({
      title: t('account.root_disable_title'),
      content: t('account.root_disable_confirm', { accounts: root.fallback_accounts.join(t('account.separator')) }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('account-root-disable-confirm') },
      onOk: () => change.mutateAsync(true).catch(() => undefined),
    });

  return (
    <Card title={t('account.privileged_title')} size="small" data-testid="account-privileged">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('account.privileged_hint')}</Typography.Paragraph>
        <Table<PrivilegedAccount> rowKey="name" size="small" pagination={false} columns={columns} dataSource={view.accounts} locale={{ emptyText: <EmptyHint text={t('empty.account.privileged')} /> }} />
        <Descriptions size="small" column={1} title={t('account.root_login_title')}>
          <Descriptions.Item label={t('account.root_permit')}>
            <span data-testid="account-root-permit">{root.permit ?? t('account.sshd_unknown')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('account.root_fallback')}>
            <span data-testid="account-root-fallback">{root.fallback_accounts.join(t('account.separator')) || t('account.none')}</span>
          </Descriptions.Item>
          {root.dropin && (
            <Descriptions.Item label={t('account.root_dropin')}>
              <Typography.Text code>{root.dropin_path}</Typography.Text>
            </Descriptions.Item>
          )}
        </Descriptions>
        {!root.dropin && root.fallback_accounts.length === 0 && <Alert type="warning" showIcon title={t('account.root_no_fallback')} data-testid="account-root-no-fallback" />}
        {canEdit &&
          (root.dropin ? (
            <Button loading={change.isPending} onClick={() => change.mutate(false)} data-testid="account-root-restore">
              {t('account.root_restore')}
            </Button>
          ) : (
            <Button danger disabled={root.fallback_accounts.length === 0} loading={change.isPending} onClick={confirmDisable} data-testid="account-root-disable">
              {t('account.root_disable')}
            </Button>
          ))}
      </Space>
    </Card>
  );
}
