import { Button, Flex, Form, Result, App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { RegisterResult } from '@rampart/contracts';
import { registerLicence } from '../../api/endpoints.ts';
import { isApiError } from '../../api/errors.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { testId } from '../../utils/testId.ts';
import { LicenceKeyFields } from './LicenceKeyFields.tsx';
import { RegisterSuccess } from './RegisterSuccess.tsx';

interface Fields {
  key: string;
  agree: boolean;
}

type Outcome =
  | { kind: 'form' }
  | { kind: 'registered'; result: Extract<RegisterResult, { status: 'registered' }> }
  | { kind: 'failed'; msg: string };

/** Product key + licence agreement; confirms a relocation when the code moves from another server. */
export function RegisterPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'form' });
  const [busy, setBusy] = useState(false);

  const submit = async (key: string, confirmMove: boolean): Promise<void> => {
    setBusy(true);
    try {
      // This page shows failures itself (with Retry), so no error modal from the API client.
      const result = await registerLicence({ key, agree: true, ...(confirmMove ? { confirm_move: true } : {}) }, { errorModal: false });
      if (result.status === 'need_confirm') {
        modal.confirm({
          title: t('register.move_title'),
          content: t('register.move_confirm', { count: result.transfers_left }),
          okText: t('common.confirm'),
          cancelText: t('common.cancel'),
          okButtonProps: testId('register-move-confirm'),
          onOk: () => submit(key, true),
        });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ['login', 'config'] });
      setOutcome({ kind: 'registered', result });
    } catch (e) {
      if (isApiError(e) && (e.kind === 'envelope' || e.kind === 'silent')) setOutcome({ kind: 'failed', msg: e.message });
    } finally {
      setBusy(false);
    }
  };

  if (outcome.kind === 'registered') {
    const r = outcome.result;
    return <RegisterSuccess username={r.username} password={r.password} expiresAt={r.expires_at} onDone={() => void navigate('/user/login')} />;
  }
  if (outcome.kind === 'failed') {
    return (
      <Result
        status="error"
        title={t('register.failed_title')}
        subTitle={<span data-testid="register-error">{outcome.msg}</span>}
        extra={
          <Button type="primary" onClick={() => setOutcome({ kind: 'form' })} data-testid="register-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  return (
    <AuthCard title={t('register.title')}>
      <Form<Fields> form={form} layout="vertical" onFinish={(v) => void submit(v.key.trim(), false)} data-testid="register-form">
        <LicenceKeyFields testIdPrefix="register" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('register.submit')}
        </Button>
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Link to="/user/login">{t('register.back_login')}</Link>
        </Flex>
      </Form>
    </AuthCard>
  );
}
