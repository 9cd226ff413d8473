import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Form, Input, Spin } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { LoginChallenge, LoginResult, UserInfo } from '@rampart/contracts';
import { fetchLoginConfig, fetchUserInfo } from '../../api/endpoints.ts';
import { isChallenge, signIn } from '../../api/sign-in-check.ts';
import { afterSignIn } from '../../routes/paths.ts';
import { userInfoKey } from '../../session/useUserInfo.ts';
import { setToken } from '../../storage/token.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { ForgotPassword } from './ForgotPassword.tsx';

// Only some consoles ask for a second step: its code (and the schemas and controls it brings) loads
// when a challenge arrives, so the sign-in page's JavaScript stays small.
const VerificationStep = lazy(() => import('./VerificationStep.tsx').then((m) => ({ default: m.VerificationStep })));

interface Fields {
  username: string;
  password: string;
  remember: boolean;
}

/**
 * Admin account and password; "remember me" keeps the token beyond this browser session. When the
 * login check mode asks for it, the verification step follows on the same path (the spec: its path
 * is not shown).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<{ challenge: LoginChallenge; remember: boolean; username: string } | null>(null);
  // "Back" from the verification step keeps the account name typed before it.
  const [lastUsername, setLastUsername] = useState('');
  // Always asked afresh: a cached answer from before registration would send the user straight back.
  const config = useQuery({ queryKey: ['login', 'config'], queryFn: fetchLoginConfig, refetchOnMount: 'always' });

  useEffect(() => {
    // An unregistered console has no admin account yet: registration creates it.
    if (config.data && !config.isFetching && !config.data.registered) void navigate('/user/register', { replace: true });
  }, [config.data, config.isFetching, navigate]);

  const enter = async (result: LoginResult, remember: boolean) => {
    setToken(result.token, remember);
    queryClient.removeQueries({ queryKey: userInfoKey });
    const info = await queryClient.fetchQuery<UserInfo>({ queryKey: userInfoKey, queryFn: fetchUserInfo });
    await navigate(afterSignIn(params.get('redirect'), info.role.permissions), { replace: true });
  };

  const onFinish = async (values: Fields) => {
    setBusy(true);
    try {
      const result = await signIn({ username: values.username.trim(), password: values.password, remember: values.remember });
      if (isChallenge(result)) setChallenge({ challenge: result, remember: values.remember, username: values.username });
      else await enter(result, values.remember);
    } catch {
      // The API client has shown the server's message (wrong password, locked IP, ...).
    } finally {
      setBusy(false);
    }
  };

  if (challenge) {
    return (
      <AuthCard title={t('sign_in_check.step_title')}>
        <Suspense fallback={<Flex justify="center"><Spin /></Flex>}>
          <VerificationStep
            challenge={challenge.challenge}
            onSignedIn={(result) => void enter(result, challenge.remember).catch(() => undefined)}
            onBack={() => {
              setLastUsername(challenge.username);
              setChallenge(null);
            }}
          />
        </Suspense>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('login.title')}>
      <Form<Fields> layout="vertical" initialValues={{ remember: false, username: lastUsername }} onFinish={(v) => void onFinish(v)} data-testid="login-form">
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
    </AuthCard>
  );
}
