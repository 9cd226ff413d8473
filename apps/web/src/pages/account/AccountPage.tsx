import { Flex, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { accountKey, fetchAccountStatus, fetchPrivileged } from './api.ts';
import { LockCard } from './LockCard.tsx';
import { PrivilegedCard } from './PrivilegedCard.tsx';

/** User protection (`/account`): the account-file lock with its timed unlock, the privileged accounts and root SSH login. */
export function AccountPage() {
  const status = useQuery({ queryKey: [...accountKey, 'status'], queryFn: fetchAccountStatus });
  const privileged = useQuery({ queryKey: [...accountKey, 'privileged'], queryFn: fetchPrivileged });
  if (!status.data || !privileged.data) return <Spin data-testid="account-loading" />;
  return (
    <Flex vertical gap={16} data-testid="account-page">
      <LockCard status={status.data} groups={privileged.data.groups} />
      <PrivilegedCard view={privileged.data} />
    </Flex>
  );
}
