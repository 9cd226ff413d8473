import { Alert, Button, Form, Input, Modal, QRCode, Space, Spin, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { verificationCodePattern, type TotpEnrolment } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { confirmTotp, disableTotp, fetchTotpStatus, startTotp } from '../../api/sign-in-check.ts';

const statusKey = ['login', 'totp'];

interface Fields {
  password?: string;
  code?: string;
}

/**
 * Two-step verification for the signed-in account: turn the authenticator app on (password, then
 * scan the QR code or type the key, then a first code proves it) or off (a current code). The key
 * is on screen only between "turn on" and "confirm"; the console never hands it out again.
 */
export function TwoStepModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: statusKey, queryFn: fetchTotpStatus, enabled: open });
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setEnrolment(null);
    form.resetFields();
    onClose();
  };

  /** Runs a call; a refusal shows on the field it concerns. */
  const run = async (field: keyof Fields, call: () => Promise<void>) => {
    setBusy(true);
    try {
      await call();
    } catch (e) {
      if (isApiError(e) && e.kind === 'envelope') {
        const named = errorField(e);
        form.setFields([{ name: named === 'password' || named === 'code' ? named : field, errors: [e.message] }]);
      }
    } finally {
      setBusy(false);
    }
  };

  const turnOn = async () => {
    const { password } = await form.validateFields(['password']);
    await run('password', async () => {
      setEnrolment(await startTotp({ password: password! }));
      form.resetFields();
    });
  };

  const finish = async (call: typeof confirmTotp) => {
    const { code } = await form.validateFields(['code']);
    await run('code', async () => {
      await call({ code: code!.trim() });
      setEnrolment(null);
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: statusKey });
    });
  };

  const codeItem = (
    <Form.Item
      name="code"
      label={t('sign_in_check.code')}
      rules={[
        { required: true, whitespace: true, message: t('sign_in_check.code_required') },
        { pattern: verificationCodePattern, message: t('sign_in_check.code_format') },
      ]}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('sign_in_check.code_placeholder')} data-testid="two-step-code" />
    </Form.Item>
  );

  const enabled = status.data?.enabled === true;
  let body;
  if (!status.data) body = <Spin />;
  else if (enrolment) {
    body = (
      <>
        <Typography.Paragraph>{t('sign_in_check.scan')}</Typography.Paragraph>
        <Space align="start" size="large" wrap>
          <QRCode value={enrolment.uri} size={168} data-testid="two-step-qr" />
          <div>
            <Typography.Text type="secondary">{t('sign_in_check.secret')}</Typography.Text>
            <Typography.Paragraph copyable code data-testid="two-step-secret">
              {enrolment.secret}
            </Typography.Paragraph>
          </div>
        </Space>
        <Typography.Paragraph type="secondary">{t('sign_in_check.confirm_hint')}</Typography.Paragraph>
        {codeItem}
        <Button type="primary" loading={busy} onClick={() => void finish(confirmTotp).catch(() => undefined)} data-testid="two-step-confirm">
          {t('sign_in_check.confirm')}
        </Button>
      </>
    );
  } else if (enabled) {
    body = (
      <>
        <Alert type="success" showIcon title={t('sign_in_check.status_on')} style={{ marginBottom: 16 }} data-testid="two-step-on" />
        <Typography.Paragraph type="secondary">{t('sign_in_check.disable_hint')}</Typography.Paragraph>
        {codeItem}
        <Button danger loading={busy} onClick={() => void finish(disableTotp).catch(() => undefined)} data-testid="two-step-disable">
          {t('sign_in_check.disable')}
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <Alert type="info" showIcon title={t('sign_in_check.status_off')} style={{ marginBottom: 16 }} data-testid="two-step-off" />
        <Form.Item name="password" label={t('sign_in_check.password')} rules={[{ required: true, message: t('sign_in_check.password_required') }]}>
          <Input.Password autoComplete="current-password" data-testid="two-step-password" />
        </Form.Item>
        <Button type="primary" loading={busy} onClick={() => void turnOn().catch(() => undefined)} data-testid="two-step-start">
          {t('sign_in_check.start')}
        </Button>
      </>
    );
  }

  return (
    <Modal
      open={open}
      title={t('sign_in_check.two_step')}
      width={535}
      mask={{ closable: false }}
      footer={<Button onClick={close} data-testid="two-step-close">{t('sign_in_check.close')}</Button>}
      onCancel={close}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="two-step-form">
        {body}
      </Form>
    </Modal>
  );
}
