import { UserOutlined } from '@ant-design/icons';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../session/useUserInfo.ts';

/** "username [role]": the role name comes from the locales so it follows the language switch. */
export function UserBadge() {
  const { t } = useTranslation();
  const { data } = useUserInfo();
  if (!data) return null;
  return (
    <Space size={4} data-testid="header-user">
      <UserOutlined />
      <Typography.Text>{data.username}</Typography.Text>
      <Tag data-testid="header-role">{t(`role.${data.role.id}`, { defaultValue: data.role.name })}</Tag>
    </Space>
  );
}
