import { LogoutOutlined } from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { SectionIcon } from '../../components/SectionIcon.tsx';
import { visibleSections } from '../../routes/paths.ts';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { useLogout } from './useLogout.ts';

const logoutKey = '__logout';

/** One entry per section the role may see, then logout. Used by the sidebar and the top layout. */
export function NavMenu({ mode, theme }: { mode: 'inline' | 'horizontal'; theme: 'light' | 'dark' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useLogout();
  const { data } = useUserInfo();
  const allowed = visibleSections(data?.role.permissions ?? []);
  const items: MenuProps['items'] = [
    ...allowed.map((s) => ({
      key: s.key,
      icon: <SectionIcon name={s.icon} />,
      label: <span data-testid={`menu-${s.key}`}>{t(`menu.${s.key}`)}</span>,
    })),
    { key: logoutKey, icon: <LogoutOutlined />, label: <span data-testid="menu-logout">{t('menu.logout')}</span> },
  ];
  const selected = location.pathname.split('/')[1] ?? '';
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === logoutKey) logout();
    else void navigate(`/${key}`);
  };
  return <Menu mode={mode} theme={theme} items={items} selectedKeys={[selected]} onClick={onClick} style={{ borderInlineEnd: 0 }} />;
}
