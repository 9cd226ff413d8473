import { Form, Input, Modal, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleIds, type PanelAccount, type RoleId } from '@rampart/contracts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { testId } from '../../utils/testId.ts';

/** What the form holds; the page checks it with the contract's schema before sending. */
export interface AccountDraft {
  username: string;
  password: string;
  role: RoleId;
  status: 0 | 1;
  remark: string;
}

export const newAccountDraft = (): AccountDraft => ({ username: '', password: '', role: 'technician', status: 1, remark: '' });

/** A stored account in the form: the password starts blank (blank keeps it). */
export const draftOfAccount = (a: PanelAccount): AccountDraft => ({ username: a.username, password: '', role: a.role, status: a.status, remark: a.remark });

/**
 * Add or edit one panel account. Errors are by field; the parent checks and sends. For one's own
 * account the role and status are fixed: the console refuses to demote or disable it anyway.
 */
export function AccountModal({ initial, editing, self, errors, saving, onErrors, onSave, onClose }: {
  initial: AccountDraft;
  editing: boolean;
  self: boolean;
  errors: FieldErrors;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: AccountDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AccountDraft>(initial);
  const set = <K extends keyof AccountDraft>(key: K, value: AccountDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(errors, key));
  };
  const err = (key: keyof AccountDraft) => errorProps(errors, key, 'account');
  const hint = (key: keyof AccountDraft, text: string) => (errors[key] ? undefined : text);

  return (
    <Modal
      open
      title={t(editing ? 'sys_user.edit_title' : 'sys_user.add_title')}
      okText={t('sys_user.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, ...testId('account-save') }}
      cancelButtonProps={testId('account-cancel')}
      onOk={() => onSave(draft)}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="account-form">
        <Form.Item label={t('sys_user.username')} required {...err('username')} extra={hint('username', t('sys_user.username_hint'))}>
          <Input value={draft.username} maxLength={20} autoComplete="off" onChange={(e) => set('username', e.target.value)} data-testid="account-username" />
        </Form.Item>
        <Form.Item
          label={t('sys_user.password')}
          required={!editing}
          {...err('password')}
          extra={hint('password', t(editing ? 'sys_user.password_keep_hint' : 'sys_user.password_hint'))}
        >
          <Input.Password
            value={draft.password}
            maxLength={50}
            autoComplete="new-password"
            placeholder={editing ? t('sys_user.password_keep_hint') : undefined}
            onChange={(e) => set('password', e.target.value)}
            data-testid="account-password"
          />
        </Form.Item>
        <Form.Item label={t('sys_user.role')} required {...err('role')} extra={hint('role', t(self ? 'sys_user.self_locked' : `sys_user.role_hint.${draft.role}`))}>
          <Select
            value={draft.role}
            disabled={self}
            onChange={(role: RoleId) => set('role', role)}
            options={roleIds.map((r) => ({ value: r, label: t(`role.${r}`), 'data-testid': `account-role-${r}` }))}
            data-testid="account-role"
          />
        </Form.Item>
        <Form.Item label={t('sys_user.status')} {...err('status')}>
          <Switch
            checked={draft.status === 1}
            disabled={self}
            checkedChildren={t('sys_user.enabled')}
            unCheckedChildren={t('sys_user.disabled')}
            onChange={(on) => set('status', on ? 1 : 0)}
            data-testid="account-status"
          />
        </Form.Item>
        <Form.Item label={t('sys_user.remark')} {...err('remark')}>
          <Input value={draft.remark} maxLength={200} onChange={(e) => set('remark', e.target.value)} data-testid="account-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
