import { App, Alert, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegisterResult } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { testId } from '../../utils/testId.ts';
import { LicenceKeyFields } from '../register/LicenceKeyFields.tsx';
import { reRegister } from './registrationApi.ts';

interface Fields {
  key: string;
  agree: boolean;
}

type Registered = Extract<RegisterResult, { status: 'registered' }>;

/**
 * Another product key for this console, with the same checks as the register page (format AAA-BBB,
 * the licence agreement) and its relocation confirmation when the key is bound to another server.
 */
export function ReRegisterModal({ onClose, onRegistered }: { onClose: () => void; onRegistered: (result: Registered) => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const [busy, setBusy] = useState(false);

  const submit = async (key: string, confirmMove: boolean): Promise<void> => {
    setBusy(true);
    try {
      const result = await reRegister({ key, agree: true, ...(confirmMove ? { confirm_move: true } : {}) });
      if (result.status === 'need_confirm') {
        modal.confirm({
          title: t('register.move_title'),
          content: t('register.move_confirm', { count: result.transfers_left }),
          okText: t('common.confirm'),
          cancelText: t('common.cancel'),
          okButtonProps: testId('reg-move-confirm'),
          onOk: () => submit(key, true),
        });
        return;
      }
      onRegistered(result);
    } catch (e) {
      // The error modal told the user; a refused field is also marked on the form.
      if (isApiError(e) && errorField(e) === 'key') form.setFields([{ name: 'key', errors: [e.message] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('sys_reg.renew_title')}
      okText={t('sys_reg.renew_submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy, ...testId('reg-renew-submit') }}
      onOk={() => form.submit()}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('sys_reg.renew_hint')} style={{ marginBottom: 16 }} />
      <Form<Fields> form={form} layout="vertical" onFinish={(v) => void submit(v.key.trim(), false)} data-testid="reg-renew-form">
        <LicenceKeyFields testIdPrefix="reg-renew" />
      </Form>
    </Modal>
  );
}
