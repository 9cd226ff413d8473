import { Layout, Typography } from 'antd';
import { useState } from 'react';
import { productName } from '@rampart/contracts';
import { useLayoutSettings } from '../../settings/LayoutSettingsContext.tsx';
import { NavMenu } from './NavMenu.tsx';

// Wide enough for the longest English entry, "Situational awareness", beside its icon.
export const siderWidth = 240;

/** The sidebar: 240 wide, collapses away below the lg breakpoint. */
export function SideMenu() {
  const { settings } = useLayoutSettings();
  const [collapsed, setCollapsed] = useState(false);
  // Below the breakpoint the sider hides behind a small trigger; above it, it is always open.
  const [small, setSmall] = useState(false);
  const theme = settings.navTheme === 'light' ? 'light' : 'dark';
  return (
    <Layout.Sider
      width={siderWidth}
      theme={theme}
      breakpoint="lg"
      collapsedWidth={0}
      collapsible={small}
      collapsed={small && collapsed}
      onCollapse={setCollapsed}
      onBreakpoint={(broken) => {
        setSmall(broken);
        setCollapsed(broken);
      }}
      data-testid="sider"
      style={settings.fixSiderbar ? { position: 'sticky', top: 0, height: '100vh', overflow: 'auto' } : undefined}
    >
      <Typography.Title level={4} style={{ color: theme === 'dark' ? '#fff' : undefined, margin: 0, padding: '16px 24px', whiteSpace: 'nowrap' }}>
        {productName}
      </Typography.Title>
      <NavMenu mode="inline" theme={theme} />
    </Layout.Sider>
  );
}
