import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLogout } from './main/useLogout.ts';

/** A role without any permission (the trusted-terminal-only role) gets this instead of the console. */
export function NoPermission() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <Result
      status="403"
      title={t('page.no_permission')}
      subTitle={t('page.no_permission_hint')}
      extra={
        <Button onClick={() => logout(false)} data-testid="no-permission-logout">
          {t('menu.logout')}
        </Button>
      }
    />
  );
}
