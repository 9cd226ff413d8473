import { SafetyOutlined } from '@ant-design/icons';
import { Button, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { totpObjectId, verificationChannelIds, verificationCodePattern, type LoginChallenge, type LoginResult } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { sendSignInCode, verifySignIn } from '../../api/sign-in-check.ts';
import { useCountdown } from './useCountdown.ts';

type Channel = (typeof verificationChannelIds)[number] | typeof totpObjectId;

interface Fields {
  channel: Channel;
  object?: string;
  code: string;
}

interface Props {
  challenge: LoginChallenge;
  onSignedIn: (result: LoginResult) => void;
  onBack: () => void;
}

/**
 * The second step of a sign-in the login check mode asks for: pick how (SMS / WeChat / e-mail to a
 * receiving object, or the authenticator app), send a code with a countdown before another, enter it.
 * The server's refusals show on the field they concern (a spent ticket's says to sign in again: Back).
 */
export function VerificationStep({ challenge, onSignedIn, onBack }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [sentTo, setSentTo] = useState<{ object: string; minutes: number } | null>(null);
  const wait = useCountdown(resendAt);

  const channels = useMemo<Channel[]>(() => {
    const offered: Channel[] = verificationChannelIds.filter((c) => challenge.objects.some((o) => o.channel === c));
    return challenge.totp ? [...offered, totpObjectId] : offered;
  }, [challenge]);
  const channel = Form.useWatch('channel', form) ?? channels[0];
  const objects = challenge.objects.filter((o) => o.channel === channel);

  /** A refusal on the field it names, else on `fallback`. */
  const showError = (e: unknown, fallback: keyof Fields) => {
    if (!isApiError(e) || e.kind !== 'envelope') return; // the API client told the user already
    const named = errorField(e);
    const name = named === 'object' || named === 'code' ? named : fallback;
    form.setFields([{ name, errors: [e.message] }]);
  };

  const send = async () => {
    const { object } = await form.validateFields(['object']);
    setSending(true);
    try {
      const result = await sendSignInCode({ ticket: challenge.ticket, object: object! });
      setResendAt(Date.now() + result.resend_in * 1000);
      const masked = challenge.objects.find((o) => o.id === object)?.masked ?? '';
      setSentTo({ object: masked, minutes: Math.round(result.expires_in / 60) });
    } catch (e) {
      showError(e, 'object');
    } finally {
      setSending(false);
    }
  };

  const verify = async (values: Fields) => {
    setBusy(true);
    try {
      const object = values.channel === totpObjectId ? totpObjectId : values.object!;
      onSignedIn(await verifySignIn({ ticket: challenge.ticket, object, code: values.code.trim() }));
    } catch (e) {
      showError(e, 'code');
    } finally {
      setBusy(false);
    }
  };

  const channelLabel = (c: Channel) => t(`sign_in_check.channel_${c}`);
  const codeRules = [
    { required: true, whitespace: true, message: t('sign_in_check.code_required') },
    { pattern: verificationCodePattern, message: t('sign_in_check.code_format') },
  ];

  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      initialValues={{ channel: channels[0] }}
      onFinish={(v) => void verify(v)}
      onValuesChange={(changed: Partial<Fields>) => {
        // Another way in: the code typed for the previous one means nothing here.
        if (changed.channel) form.setFieldsValue({ object: undefined, code: '' });
      }}
      data-testid="verify-step"
    >
      <Typography.Paragraph type="secondary">
        <SafetyOutlined /> {t('sign_in_check.step_hint')}
      </Typography.Paragraph>
      <Form.Item name="channel" label={t('sign_in_check.channel')}>
        <Radio.Group data-testid="verify-channel">
          {channels.map((c) => (
            <Radio.Button key={c} value={c} data-testid={`verify-channel-${c}`}>
              {channelLabel(c)}
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      {channel !== totpObjectId && (
        <Form.Item name="object" label={t('sign_in_check.object')} rules={[{ required: true, message: t('sign_in_check.object_required') }]}>
          <Select
            placeholder={t('sign_in_check.object_placeholder')}
            options={objects.map((o) => ({ value: o.id, label: <span data-testid={`verify-object-${o.id}`}>{o.masked}</span> }))}
            data-testid="verify-object"
          />
        </Form.Item>
      )}
      <Form.Item
        label={t('sign_in_check.code')}
        required
        extra={channel === totpObjectId ? t('sign_in_check.totp_hint') : sentTo ? t('sign_in_check.sent', sentTo) : undefined}
      >
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={codeRules}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('sign_in_check.code_placeholder')} data-testid="verify-code" />
          </Form.Item>
          {channel !== totpObjectId && (
            <Button onClick={() => void send().catch(() => undefined)} disabled={wait > 0} loading={sending} data-testid="verify-send">
              {wait > 0 ? t('sign_in_check.resend_in', { seconds: wait }) : t('sign_in_check.send')}
            </Button>
          )}
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="verify-submit">
        {t('sign_in_check.verify')}
      </Button>
      <Button type="link" block onClick={onBack} style={{ marginTop: 8 }} data-testid="verify-back">
        {t('sign_in_check.back')}
      </Button>
    </Form>
  );
}
