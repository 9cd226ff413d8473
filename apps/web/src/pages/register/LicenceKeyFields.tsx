import { Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { licenceCodePattern } from '@rampart/contracts';
import { LicenceModal } from './LicenceModal.tsx';

/**
 * The licence code and "I agree to the licence agreement" fields (with the agreement's modal), for
 * a form whose values hold `key` and `agree`: the register page and re-registering from soft_reg.
 */
export function LicenceKeyFields({ testIdPrefix }: { testIdPrefix: string }) {
  const { t } = useTranslation();
  const [licenceOpen, setLicenceOpen] = useState(false);
  return (
    <>
      <Form.Item
        name="key"
        label={t('register.key')}
        rules={[
          { required: true, whitespace: true, message: t('register.key_required') },
          { pattern: licenceCodePattern, message: t('register.key_format'), transform: (v: string) => v?.trim() },
        ]}
      >
        <Input placeholder={t('register.key_placeholder')} maxLength={16} autoComplete="off" data-testid={`${testIdPrefix}-key`} />
      </Form.Item>
      <Form.Item
        name="agree"
        valuePropName="checked"
        rules={[{ validator: (_r, v: boolean | undefined) => (v ? Promise.resolve() : Promise.reject(new Error(t('register.agree_required')))) }]}
      >
        <Checkbox data-testid={`${testIdPrefix}-agree`}>
          {t('register.agree')}{' '}
          <a
            onClick={(e) => {
              e.preventDefault();
              setLicenceOpen(true);
            }}
            data-testid={`${testIdPrefix}-licence-link`}
          >
            {t('register.agreement')}
          </a>
        </Checkbox>
      </Form.Item>
      <LicenceModal open={licenceOpen} onClose={() => setLicenceOpen(false)} />
    </>
  );
}
