import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Flex, Form, Input } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { UserInfo } from '@rampart/contracts';
import { fetchLoginConfig, fetchUserInfo, signIn } from '../../api/endpoints.ts';
import { afterSignIn } from '../../routes/paths.ts';
import { userInfoKey } from '../../session/useUserInfo.ts';
import { setToken } from '../../storage/token.ts';
import { ForgotPassword } from './ForgotPassword.tsx';

interface Fields {
  username: string;
  password: string;
  remember: boolean;
}

/** Admin account and password; "remember me" keeps the token beyond this browser session. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // Always asked afresh: a cached answer from before registration would send the user straight back.
  const config = useQuery({ queryKey: ['login', 'config'], queryFn: fetchLoginConfig, refetchOnMount: 'always' });

  useEffect(() => {
    // An unregistered console has no admin account yet: registration creates it.
    if (config.data && !config.isFetching && !config.data.registered) void navigate('/user/register', { replace: true });
  }, [config.data, config.isFetching, navigate]);

  const onFinish = async (values: Fields) => {
    setBusy(true);
    try {
      const result = await signIn({ username: values.username.trim(), password: values.password, remember: values.remember });
      setToken(result.token, values.remember);
      queryClient.removeQueries({ queryKey: userInfoKey });
      const info = await queryClient.fetchQuery<UserInfo>({ queryKey: userInfoKey, queryFn: fetchUserInfo });
      await navigate(afterSignIn(params.get('redirect'), info.role.permissions), { replace: true });
    } catch {
      // The API client has shown the server's message (wrong password, locked IP, ...).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('login.title')}>
      <Form<Fields> layout="vertical" initialValues={{ remember: false }} onFinish={(v) => void onFinish(v)} data-testid="login-form">
        <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('login.username_required') }]}>
          <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.password_required') }]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
        </Form.Item>
        <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
          </Form.Item>
          <ForgotPassword />
        </Flex>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
          {t('login.submit')}
        </Button>
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Link to="/user/register" data-testid="register-link">
            {t('login.register_link')}
          </Link>
        </Flex>
      </Form>
    </Card>
  );
}
