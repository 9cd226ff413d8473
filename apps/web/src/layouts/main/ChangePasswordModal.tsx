import { Form, Input, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isValidPassword } from '@rampart/contracts';
import { changePassword } from '../../api/endpoints.ts';
import { clearToken } from '../../storage/token.ts';
import { testId } from '../../utils/testId.ts';

interface Fields {
  username: string;
  old: string;
  new: string;
  confirm: string;
}

/**
 * Change the signed-in user's password. The server revokes every session of the account on success,
 * so the form resets, the modal closes and the user signs in again with the new password.
 */
export function ChangePasswordModal({ open, username, onClose }: { open: boolean; username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await changePassword({ username, old: values.old, new: values.new, confirm: values.confirm });
    } catch {
      return; // the API client showed the server's message; the form keeps its values for a retry
    } finally {
      setSaving(false);
    }
    form.resetFields();
    onClose();
    clearToken();
    queryClient.clear();
    await navigate('/user/login');
  };

  return (
    <Modal
      open={open}
      title={t('password.title')}
      width={535}
      mask={{ closable: false }}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      okButtonProps={testId('password-submit')}
      forceRender
    >
      <Form form={form} layout="vertical" initialValues={{ username }} data-testid="password-form">
        <Form.Item name="username" label={t('password.username')}>
          <Input readOnly disabled data-testid="password-username" />
        </Form.Item>
        <Form.Item name="old" label={t('password.old')} rules={[{ required: true, message: t('password.old_required') }]}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <Form.Item
          name="new"
          label={t('password.new')}
          rules={[
            { required: true, message: t('password.new_required') },
            { validator: (_r, v: string | undefined) => (!v || isValidPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('password.invalid')))) },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('password.confirm')}
          dependencies={['new']}
          rules={[
            { required: true, message: t('password.confirm_required') },
            ({ getFieldValue }) => ({
              validator: (_r, v: string | undefined) =>
                !v || v === getFieldValue('new') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
