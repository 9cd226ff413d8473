import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Modal, Space, Upload } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigRestoreResult } from '@rampart/contracts';
import { isApiError } from '../../api/errors.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { importConfig, uploadConfig } from './configBackupApi.ts';

/**
 * Choose a configuration file, then restore it now (after a confirmation: it replaces the current
 * configuration) or keep it as a server backup. The server checks the file whole; its refusal
 * (damaged, foreign, newer, an invalid entry) shows here and nothing has changed.
 */
export function ConfigImportModal({ onClose, onRestored, onStored }: {
  onClose: () => void;
  onRestored: (result: ConfigRestoreResult | undefined) => void;
  onStored: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const canRestore = useCan('system', 'import');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();

  const fail = (e: unknown) => setError(isApiError(e) ? e.message : String(e));
  const restore = useMutation({ mutationFn: async (chosen: File) => importConfig(await chosen.text()), onSuccess: onRestored, onError: fail });
  const store = useMutation({ mutationFn: async (chosen: File) => uploadConfig(await chosen.text()), onSuccess: onStored, onError: fail });
  const busy = restore.isPending || store.isPending;

  const apply = () => {
    if (!file) return setError(t('sys_config.no_file'));
    modal.confirm({
      title: t('sys_config.replace_title'),
      content: t('sys_config.replace_confirm', { name: file.name }),
      okText: t('sys_config.apply_now'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('cfg-import-confirm') },
      onOk: () => {
        setError(undefined);
        restore.mutate(file);
      },
    });
  };
  const keep = () => {
    if (!file) return setError(t('sys_config.no_file'));
    setError(undefined);
    store.mutate(file);
  };

  return (
    <Modal
      open
      title={t('sys_config.import_title')}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button onClick={keep} loading={store.isPending} disabled={restore.isPending} data-testid="cfg-import-keep">{t('sys_config.keep_on_server')}</Button>
          {canRestore && (
            <Button type="primary" danger onClick={apply} loading={restore.isPending} disabled={store.isPending} data-testid="cfg-import-apply">
              {t('sys_config.apply_now')}
            </Button>
          )}
        </Space>
      }
    >
      <Form layout="vertical" data-testid="cfg-import-form">
        <Form.Item label={t('sys_config.choose_file')} extra={t('sys_config.file_hint')}>
          <Upload
            accept=".json,application/json"
            maxCount={1}
            disabled={busy}
            fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
            beforeUpload={(chosen) => {
              setFile(chosen);
              setError(undefined);
              return false;
            }}
            onRemove={() => setFile(null)}
            data-testid="cfg-import-upload"
          >
            <Button icon={<UploadOutlined />} data-testid="cfg-import-choose">{t('sys_config.choose_file')}</Button>
          </Upload>
        </Form.Item>
      </Form>
      {restore.isPending && <Alert type="info" showIcon title={t('sys_config.applying')} data-testid="cfg-import-progress" />}
      {error && <Alert type="error" showIcon title={error} data-testid="cfg-import-error" />}
    </Modal>
  );
}
