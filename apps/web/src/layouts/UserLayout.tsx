import { Flex, Layout, theme } from 'antd';
import { Navigate, Outlet } from 'react-router-dom';
import { productName } from '@rampart/contracts';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { hasToken } from '../storage/token.ts';

/** Sign-in and register. Someone already signed in goes to the console instead. */
export function UserLayout() {
  const { token } = theme.useToken();
  if (hasToken()) return <Navigate to="/" replace />;
  return (
    <Layout style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      <Flex justify="flex-end" style={{ padding: 16 }}>
        <LanguageSwitch />
      </Flex>
      <Flex vertical align="center" style={{ flex: 1, padding: '24px 16px' }}>
        {/* A level-2 heading in antd's Typography style, without Typography's code (the sign-in page stays small). */}
        <h2
          style={{
            marginBottom: 24, color: token.colorTextHeading, fontWeight: token.fontWeightStrong,
            fontSize: token.fontSizeHeading2, lineHeight: token.lineHeightHeading2,
          }}
        >
          {productName}
        </h2>
        <div style={{ width: '100%', maxWidth: 420 }}>
          <Outlet />
        </div>
      </Flex>
    </Layout>
  );
}
