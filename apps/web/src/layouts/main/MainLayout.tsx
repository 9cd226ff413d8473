import { Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useLayoutSettings } from '../../settings/LayoutSettingsContext.tsx';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { AppHeader } from './AppHeader.tsx';
import { ChangePasswordModal } from './ChangePasswordModal.tsx';
import { SettingsDrawer } from './SettingsDrawer.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TwoStepModal } from './TwoStepModal.tsx';

/** Fixed content width, as in the usual admin layouts. */
const fixedWidth = 1200;

export function MainLayout() {
  const { settings } = useLayoutSettings();
  const username = useUserInfo().data?.username ?? '';
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [twoStepOpen, setTwoStepOpen] = useState(false);
  const fixed = settings.contentWidth === 'Fixed';
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {settings.layout === 'side' && <SideMenu />}
      <Layout>
        <AppHeader onChangePassword={() => setPasswordOpen(true)} onTwoStep={() => setTwoStepOpen(true)} onOpenSettings={() => setSettingsOpen(true)} />
        <Layout.Content style={{ padding: 24 }}>
          <div style={fixed ? { maxWidth: fixedWidth, margin: '0 auto' } : undefined} data-testid="content">
            <Outlet />
          </div>
        </Layout.Content>
      </Layout>
      <ChangePasswordModal open={passwordOpen} username={username} onClose={() => setPasswordOpen(false)} />
      <TwoStepModal open={twoStepOpen} onClose={() => setTwoStepOpen(false)} />
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Layout>
  );
}
