import { Button, Flex, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { loginPathFor } from '../api/navigation.ts';
import { usePageTexts } from '../i18n/usePageTexts.ts';
import { ReloadNotice } from '../pages/errors/ReloadNotice.tsx';
import { useUserInfo } from '../session/useUserInfo.ts';
import { hasToken } from '../storage/token.ts';
import { RealtimeProvider } from '../ws/RealtimeProvider.tsx';
import { MainLayout } from './main/MainLayout.tsx';
import { NoPermission } from './NoPermission.tsx';

/**
 * The signed-in part of the app: needs a token, the user info and the console's page texts (fetched
 * side by side after sign-in) before anything is shown.
 */
export function SignedInShell() {
  const { t } = useTranslation();
  const location = useLocation();
  const info = useUserInfo();
  const signedIn = hasToken();
  const pageTexts = usePageTexts(signedIn);
  if (!signedIn) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (pageTexts === 'failed') return <ReloadNotice />;
  if (info.isPending || pageTexts === 'loading') {
    return (
      <Flex justify="center" align="center" style={{ minHeight: '100vh' }}>
        <Spin size="large" />
      </Flex>
    );
  }
  if (info.isError) {
    return (
      <Result
        status="500"
        title={t('page.500')}
        subTitle={info.error.message}
        extra={<Button onClick={() => void info.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  if (info.data.role.permissions.length === 0) return <NoPermission />;
  return (
    <RealtimeProvider>
      <MainLayout />
    </RealtimeProvider>
  );
}
