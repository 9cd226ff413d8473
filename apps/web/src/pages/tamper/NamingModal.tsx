import { Flex, Form, Input, Modal, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { testId } from '../../utils/testId.ts';
import type { NamingDraft } from './namingForm.ts';

/** A tags input for name patterns: Enter, comma or space ends a name. */
function NamesInput({ value, onChange, id, placeholder }: { value: string[]; onChange: (names: string[]) => void; id: string; placeholder: string }) {
  return (
    <Select
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', ' ', '\n']}
      value={value}
      placeholder={placeholder}
      onChange={(names: string[]) => onChange([...new Set(names.map((n) => n.trim()).filter(Boolean))])}
      data-testid={id}
    />
  );
}

/** Add or edit one naming rule. The parent checks and sends. */
export function NamingModal({ initial, editing, errors, saving, onErrors, onSave, onClose }: {
  initial: NamingDraft;
  editing: boolean;
  errors: FieldErrors;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: NamingDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<NamingDraft>(initial);
  const set = <K extends keyof NamingDraft>(key: K, value: NamingDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(errors, key));
  };
  const err = (key: string) => errorProps(errors, key, 'tamper-naming');
  return (
    <Modal
      open
      title={t(editing ? 'tamper.naming.edit_title' : 'tamper.naming.add_title')}
      okText={t('fw.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, ...testId('tamper-naming-save') }}
      cancelButtonProps={testId('tamper-naming-cancel')}
      onOk={() => onSave(draft)}
      onCancel={onClose}
      mask={{ closable: false }}
      width={640}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="tamper-naming-form">
        <Form.Item label={t('tamper.naming.dir')} required {...err('dir')} extra={errors.dir ? undefined : t('tamper.naming.dir_hint')}>
          <Input value={draft.dir} placeholder={t('tamper.rule.path_placeholder')} onChange={(e) => set('dir', e.target.value)} data-testid="tamper-naming-dir" />
        </Form.Item>
        <Form.Item label={t('tamper.naming.deny_dirs')} {...err('deny_dirs')} extra={errors.deny_dirs ? undefined : t('tamper.naming.names_hint')}>
          <NamesInput value={draft.deny_dirs} onChange={(v) => set('deny_dirs', v)} id="tamper-naming-deny-dirs" placeholder={t('tamper.naming.dirs_placeholder')} />
        </Form.Item>
        <Form.Item label={t('tamper.naming.deny_files')} {...err('deny_files')} extra={errors.deny_files ? undefined : t('tamper.naming.names_hint')}>
          <NamesInput value={draft.deny_files} onChange={(v) => set('deny_files', v)} id="tamper-naming-deny-files" placeholder={t('tamper.naming.names_placeholder')} />
        </Form.Item>
        <Form.Item label={t('tamper.naming.deny_malformed')} extra={t('tamper.naming.malformed_hint')}>
          <Switch checked={draft.deny_malformed} onChange={(v) => set('deny_malformed', v)} data-testid="tamper-naming-malformed" />
        </Form.Item>
        <Flex gap={32}>
          <Form.Item label={t('tamper.rule.notify')} tooltip={t('tamper.rule.notify_hint')}>
            <Switch checked={draft.notify} onChange={(v) => set('notify', v)} data-testid="tamper-naming-notify" />
          </Form.Item>
          <Form.Item label={t('tamper.rule.enabled')}>
            <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="tamper-naming-enabled" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('tamper.rule.remark')} {...err('remark')}>
          <Input value={draft.remark} maxLength={200} onChange={(e) => set('remark', e.target.value)} data-testid="tamper-naming-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
