import { Button, Form, Input, Modal, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translate, trustAddBodySchema, trustRenewBodySchema } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { entryLines, foldLineErrors, schemaErrors, type EntryLine } from '../firewall/forms.ts';
import { addTrust, renewTrust } from './trustApi.ts';
import { TrustValidity } from './TrustValidity.tsx';

/** Adds IPs to the super whitelist: one per line, a required validity, a remark; the user's own IP as a quick fill. */
export function TrustAddModal({ clientIp, onDone, onClose }: { clientIp: string; onDone: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [text, setText] = useState('');
  const [days, setDays] = useState<number | null>(null);
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const lines = entryLines(text);
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });
  const err = (key: string) => errorProps(errors, key, 'trust');

  const add = useMutation({
    mutationFn: addTrust,
    onSuccess: () => {
      onDone();
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors(foldLineErrors({ [field]: e.message }, 'ips', lines, describeLine));
    },
  });

  const submit = () => {
    const parsed = trustAddBodySchema.safeParse({ ips: lines.map((l) => l.text), days: days ?? undefined, remark });
    if (!parsed.success) {
      setErrors(foldLineErrors(schemaErrors(parsed.error.issues, lang, { max: 1000 }), 'ips', lines, describeLine));
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
  };
  const fillMine = () => {
    if (!clientIp || lines.some((l) => l.text === clientIp)) return;
    setText((current) => (current.trim() === '' ? clientIp : `${current.replace(/\s+$/, '')}\n${clientIp}`));
    setErrors((current) => withoutError(current, 'ips'));
  };

  return (
    <Modal
      open
      title={t('sys_trust.add_title')}
      okText={t('sys_trust.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: add.isPending, ...testId('trust-add-save') }}
      cancelButtonProps={testId('trust-add-cancel')}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="trust-add-form">
        <Form.Item label={t('sys_trust.ips')} {...err('ips')} extra={errors['ips'] ? undefined : t('sys_trust.ips_hint')}>
          <Input.TextArea
            rows={5}
            value={text}
            placeholder={t('sys_trust.ips_placeholder')}
            onChange={(e) => {
              setText(e.target.value);
              setErrors((current) => withoutError(current, 'ips'));
            }}
            data-testid="trust-ips"
          />
        </Form.Item>
        {clientIp && (
          <Button type="link" size="small" style={{ padding: 0, marginTop: -16, marginBottom: 8 }} onClick={fillMine} data-testid="trust-fill-mine">
            {t('sys_trust.my_ip', { ip: clientIp })}
          </Button>
        )}
        <Form.Item label={t('sys_trust.validity')} required {...err('days')}>
          <TrustValidity
            value={days}
            prefix="trust-add"
            onChange={(next) => {
              setDays(next);
              setErrors((current) => withoutError(current, 'days'));
            }}
          />
        </Form.Item>
        <Form.Item label={t('sys_trust.remark')} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="trust-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Extends the validity of entries (from their current end, or from now once it has passed). */
export function TrustRenewModal({ ids, onDone, onClose }: { ids: readonly number[]; onDone: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [days, setDays] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const renew = useMutation({
    mutationFn: (value: number) => renewTrust(ids, value),
    onSuccess: () => {
      onDone();
      onClose();
    },
    onError: (e) => {
      if (errorField(e) && isApiError(e)) setError(e.message);
    },
  });
  const submit = () => {
    const parsed = trustRenewBodySchema.safeParse({ days: days ?? undefined });
    if (!parsed.success) {
      const key = parsed.error.issues[0]?.message;
      setError(translate(lang, key === 'trust_validity_invalid' ? 'trust_validity_invalid' : 'trust_validity_required'));
      return;
    }
    renew.mutate(parsed.data.days);
  };
  return (
    <Modal
      open
      title={t('sys_trust.renew_title')}
      okText={t('sys_trust.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: renew.isPending, ...testId('trust-renew-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="trust-renew-form">
        <Typography.Paragraph>{t('sys_trust.renew_intro', { count: ids.length })}</Typography.Paragraph>
        <Form.Item label={t('sys_trust.validity')} required {...errorProps(error ? { days: error } : {}, 'days', 'trust-renew')}>
          <TrustValidity
            value={days}
            prefix="trust-renew"
            onChange={(next) => {
              setDays(next);
              setError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
