import { KeyOutlined, QuestionCircleOutlined, SafetyOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Space, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { productName } from '@rampart/contracts';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { useLayoutSettings } from '../../settings/LayoutSettingsContext.tsx';
import { useGlobalInfo } from '../../session/useGlobalInfo.ts';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { DemoButton } from './DemoButton.tsx';
import { NavMenu } from './NavMenu.tsx';
import { NoticeBadge } from './NoticeBadge.tsx';
import { useAutoHideHeader } from './useAutoHideHeader.ts';
import { UserBadge } from './UserBadge.tsx';

interface Props {
  onChangePassword: () => void;
  onTwoStep: () => void;
  onOpenSettings: () => void;
}

/** OS, demo button, language, unread notices, help, change password, user and role, layout settings. */
export function AppHeader({ onChangePassword, onTwoStep, onOpenSettings }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { settings } = useLayoutSettings();
  const info = useUserInfo().data;
  const help = useGlobalInfo().data?.oem.oem_help;
  const hidden = useAutoHideHeader(settings.fixedHeader && settings.autoHideHeader);
  const top = settings.layout === 'top';
  const dark = top && settings.navTheme !== 'light';
  return (
    <Layout.Header
      data-testid="header"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 16,
        padding: '0 16px',
        background: dark ? undefined : token.colorBgContainer,
        position: settings.fixedHeader ? 'sticky' : 'relative',
        top: 0,
        zIndex: 10,
        transform: hidden ? 'translateY(-100%)' : undefined,
        transition: 'transform 0.2s',
      }}
    >
      {top && (
        <>
          <Typography.Title level={4} style={{ margin: 0, color: dark ? '#fff' : undefined, whiteSpace: 'nowrap' }}>
            {productName}
          </Typography.Title>
          <div style={{ flex: 1, minWidth: 0 }}>
            <NavMenu mode="horizontal" theme={dark ? 'dark' : 'light'} />
          </div>
        </>
      )}
      {!top && (
        <Typography.Text type="secondary" style={{ flex: 1 }} ellipsis data-testid="header-os">
          {info?.os}
        </Typography.Text>
      )}
      <Flex align="center">
        <Space size="small" wrap={false}>
          <DemoButton />
          <LanguageSwitch />
          <NoticeBadge />
          {help && (
            <Tooltip title={t('header.help')}>
              <Button type="text" icon={<QuestionCircleOutlined />} href={help} target="_blank" rel="noopener noreferrer" aria-label={t('header.help')} data-testid="help-link" />
            </Tooltip>
          )}
          <Tooltip title={t('header.change_password')}>
            <Button type="text" icon={<KeyOutlined />} onClick={onChangePassword} aria-label={t('header.change_password')} data-testid="change-password" />
          </Tooltip>
          <Tooltip title={t('sign_in_check.two_step')}>
            <Button type="text" icon={<SafetyOutlined />} onClick={onTwoStep} aria-label={t('sign_in_check.two_step')} data-testid="two-step" />
          </Tooltip>
          <UserBadge />
          <Tooltip title={t('header.settings')}>
            <Button type="text" icon={<SettingOutlined />} onClick={onOpenSettings} aria-label={t('header.settings')} data-testid="open-settings" />
          </Tooltip>
        </Space>
      </Flex>
    </Layout.Header>
  );
}
