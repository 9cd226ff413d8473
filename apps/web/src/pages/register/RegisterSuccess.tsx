import { Alert, Button, Descriptions, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.tsx';
import { formatDate } from '../../utils/format.ts';

interface Props {
  username: string;
  password: string | null;
  expiresAt: number;
  onDone: () => void;
}

/** Admin account, password (once only) and expiry after a successful registration. */
export function RegisterSuccess({ username, password, expiresAt, onDone }: Props) {
  const { t } = useTranslation();
  return (
    <Result
      status="success"
      title={t('register.success_title')}
      extra={
        <Button type="primary" onClick={onDone} data-testid="register-to-login">
          {t('register.to_login')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        {password !== null && <Alert type="warning" showIcon title={t('register.once_warning')} data-testid="register-once-warning" />}
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('register.admin_account')}>
            <Typography.Text data-testid="register-username">{username}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('register.admin_password')}>
            {password === null ? (
              <Typography.Text type="secondary" data-testid="register-password-unchanged">{t('register.password_unchanged')}</Typography.Text>
            ) : (
              <Space>
                <Typography.Text code data-testid="register-password">{password}</Typography.Text>
                <CopyButton text={password} testid="register-copy-password" />
              </Space>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('register.expiry')}>
            <span data-testid="register-expiry">{formatDate(expiresAt)}</span>
          </Descriptions.Item>
        </Descriptions>
      </Space>
    </Result>
  );
}
