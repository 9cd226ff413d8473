import { Alert, Flex, Form, Input, InputNumber, Modal, Radio, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backupSubdirectory, backupTypes, type BackupRuleInput, type BackupRuleView } from '@rampart/contracts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { testId } from '../../utils/testId.ts';

type BackupType = BackupRuleInput['type'];
/** A rule being edited; the port may be empty while the user types. */
export type RuleDraft = Omit<BackupRuleInput, 'port'> & { port: number | null };

/** Where a target's ports usually are, filled in for a new rule and when its type changes. */
export const defaultPorts: Record<BackupType, number> = { s3: 443, ftp: 21, sftp: 22 };

export function newRuleDraft(): RuleDraft {
  return {
    enabled: true, type: 's3', bucket: '', domain: '', ip: '', port: defaultPorts.s3, username: '', password: '',
    access_id: '', access_secret: '', save_path: '', remark: '',
  };
}

/** Where the archives of a rule land: the fixed subdirectory under its save path. */
export function archiveDir(savePath: string): string {
  const base = savePath.trim().replace(/\/+$/, '');
  return `${base}/${backupSubdirectory}/`;
}

/** Add or edit one backup rule. Errors are by field of this rule; `general` is about the rule as a whole (duplicates). */
export function BackupRuleModal({ initial, view, errors, general, saving, onErrors, onSave, onClose }: {
  initial: RuleDraft;
  /** The stored rule when editing: says whether a password / access secret is kept. */
  view: BackupRuleView | undefined;
  errors: FieldErrors;
  general: string | undefined;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: RuleDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(errors, key));
  };
  const setType = (type: BackupType) => {
    // A port still at the old type's default follows the new type.
    setDraft((d) => ({ ...d, type, port: d.port === null || d.port === defaultPorts[d.type] ? defaultPorts[type] : d.port }));
    onErrors(withoutError(errors, 'type'));
  };
  const err = (key: string) => errorProps(errors, key, 'backup');
  const text = (key: 'bucket' | 'domain' | 'ip' | 'username' | 'access_id' | 'save_path' | 'remark', label: string, extra?: { placeholder?: string }) => (
    <Form.Item label={label} {...err(key)}>
      <Input value={draft[key]} placeholder={extra?.placeholder} onChange={(e) => set(key, e.target.value)} data-testid={`backup-${key.replace('_', '-')}`} />
    </Form.Item>
  );
  const secret = (key: 'password' | 'access_secret', label: string, kept: boolean) => (
    <Form.Item label={label} {...err(key)}>
      <Input.Password
        value={draft[key]}
        autoComplete="new-password"
        placeholder={kept ? t('backup.keep_secret') : undefined}
        onChange={(e) => set(key, e.target.value)}
        data-testid={`backup-${key.replace('_', '-')}`}
      />
    </Form.Item>
  );

  return (
    <Modal
      open
      title={t(view ? 'backup.edit_title' : 'backup.add_title')}
      okText={t('backup.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, ...testId('backup-save') }}
      cancelButtonProps={testId('backup-modal-cancel')}
      onOk={() => onSave(draft)}
      onCancel={onClose}
      mask={{ closable: false }}
      width={640}
      destroyOnHidden
    >
      {general && <Alert type="error" showIcon title={general} style={{ marginBottom: 16 }} data-testid="backup-error" />}
      <Form layout="vertical" data-testid="backup-form">
        <Form.Item label={t('backup.col.type')} {...err('type')}>
          <Radio.Group
            optionType="button"
            value={draft.type}
            onChange={(e) => setType(e.target.value as BackupType)}
            options={backupTypes.map((ty) => ({ value: ty, label: <span data-testid={`backup-type-${ty}`}>{t(`backup.type.${ty}`)}</span> }))}
          />
        </Form.Item>
        {draft.type === 's3' && text('bucket', t('backup.col.bucket'))}
        <Flex gap={16}>
          <div style={{ flex: 1 }}>{text('domain', t('backup.domain'), { placeholder: t('backup.domain_placeholder') })}</div>
          <div style={{ flex: 1 }}>{text('ip', t('backup.ip'))}</div>
          <Form.Item label={t('backup.col.port')} {...err('port')}>
            <InputNumber style={{ width: 110 }} value={draft.port} onChange={(v) => set('port', v)} data-testid="backup-port" />
          </Form.Item>
        </Flex>
        {draft.type === 's3' ? (
          <Flex gap={16}>
            <div style={{ flex: 1 }}>{text('access_id', t('backup.access_id'))}</div>
            <div style={{ flex: 1 }}>{secret('access_secret', t('backup.access_secret'), view?.has_access_secret ?? false)}</div>
          </Flex>
        ) : (
          <Flex gap={16}>
            <div style={{ flex: 1 }}>{text('username', t('backup.col.username'))}</div>
            <div style={{ flex: 1 }}>{secret('password', t('backup.password'), view?.has_password ?? false)}</div>
          </Flex>
        )}
        {text('save_path', t('backup.col.save_path'), { placeholder: t('backup.save_path_placeholder') })}
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }} data-testid="backup-archive-path">
          {t('backup.archive_path', { path: archiveDir(draft.save_path) })}
        </Typography.Paragraph>
        {text('remark', t('backup.col.remark'))}
        <Form.Item label={t('backup.col.enabled')}>
          <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="backup-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
