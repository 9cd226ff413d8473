import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Form, Input, Modal, Radio, Space, Upload, type DatePickerProps } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firewallListAddBodySchema, listChunkSize, translate, type FirewallListKind } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { addListEntries, importList } from './api.ts';
import { useReportChange } from './FirewallTab.tsx';
import { entryLines, foldLineErrors, readFileText, schemaErrors, type EntryLine } from './forms.ts';

/** The most an import may carry (the console's body limit for it). */
export const maxImportBytes = 64 * 1024 * 1024;

type Validity = 'permanent' | 'until';
/** The date picker's own date type (antd's Dayjs), without importing dayjs here. */
type PickedDate = Parameters<NonNullable<DatePickerProps['disabledDate']>>[0] | null;

/** Adds addresses to the white or black list: one per line, a remark, permanent or valid until a date. */
export function ListAddModal({ list, onClose }: { list: FirewallListKind; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const report = useReportChange();
  const [text, setText] = useState('');
  const [remark, setRemark] = useState('');
  const [validity, setValidity] = useState<Validity>('permanent');
  const [until, setUntil] = useState<PickedDate>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const lines = entryLines(text);
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });
  const err = (key: string) => errorProps(errors, key, 'fw-list');

  const add = useMutation({
    mutationFn: addListEntries,
    onSuccess: (data) => {
      report(data);
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors(foldLineErrors({ [field]: e.message }, 'addresses', lines, describeLine));
    },
  });

  const submit = () => {
    const expiresAt = validity === 'until' && until ? until.valueOf() : null;
    const parsed = firewallListAddBodySchema.safeParse({ list, addresses: lines.map((l) => l.text), remark, expires_at: expiresAt });
    const found: Record<string, string> = parsed.success
      ? {}
      : { ...foldLineErrors(schemaErrors(parsed.error.issues, lang, { max: listChunkSize }), 'addresses', lines, describeLine) };
    if (validity === 'until' && (expiresAt === null || expiresAt <= Date.now())) found.expires_at = translate(lang, 'fw_expiry_invalid');
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) add.mutate(parsed.data);
  };

  return (
    <Modal
      open
      title={t(`fw.lists.add_title_${list}`)}
      okText={t('fw.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: add.isPending, ...testId('fw-list-add-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="fw-list-add-form">
        <Form.Item label={t('fw.lists.addresses')} {...err('addresses')} extra={t('fw.lists.addresses_hint')}>
          <Input.TextArea
            rows={6}
            value={text}
            placeholder={t('fw.lists.addresses_placeholder')}
            onChange={(e) => {
              setText(e.target.value);
              setErrors((current) => withoutError(current, 'addresses'));
            }}
            data-testid="fw-list-addresses"
          />
        </Form.Item>
        <Form.Item label={t('fw.remark')} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="fw-list-remark" />
        </Form.Item>
        <Form.Item label={t('fw.lists.validity')} {...err('expires_at')}>
          <Space wrap>
            <Radio.Group
              value={validity}
              onChange={(e) => {
                setValidity(e.target.value as Validity);
                setErrors((current) => withoutError(current, 'expires_at'));
              }}
              options={(['permanent', 'until'] as const).map((v) => ({ value: v, label: <span data-testid={`fw-list-validity-${v}`}>{t(`fw.lists.validity_${v}`)}</span> }))}
            />
            {validity === 'until' && (
              <DatePicker
                showTime
                value={until}
                placeholder={t('fw.lists.until_placeholder')}
                disabledDate={(d) => d.endOf('day').valueOf() < Date.now()}
                onChange={(d) => {
                  setUntil(d);
                  setErrors((current) => withoutError(current, 'expires_at'));
                }}
                data-testid="fw-list-until"
              />
            )}
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Imports a text file into the white or black list: read in the browser, its content posted. */
export function ListImportModal({ list, onClose }: { list: FirewallListKind; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useReportChange();
  const [file, setFile] = useState<File | null>(null);
  const [remark, setRemark] = useState('');
  const [error, setError] = useState<string | undefined>();

  const run = useMutation({
    mutationFn: async (chosen: File) => importList({ list, content: await readFileText(chosen), remark: remark.trim() }),
    onSuccess: (data) => {
      report(data);
      onClose();
    },
    // The API client has shown the server's answer (a bad line is named there); only a failed read is ours to tell.
    onError: (e) => {
      if (!isApiError(e)) setError(t('fw.lists.read_failed'));
    },
  });

  const submit = () => {
    if (!file) setError(t('fw.lists.file_required'));
    else if (file.size > maxImportBytes) setError(t('fw.lists.file_too_large'));
    else run.mutate(file);
  };

  return (
    <Modal
      open
      title={t(`fw.lists.import_title_${list}`)}
      okText={t('fw.import')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: run.isPending, ...testId('fw-list-import-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="fw-list-import-form">
        <Form.Item label={t('fw.lists.file')} extra={t('fw.lists.file_hint')}>
          <Upload
            accept=".txt,text/plain"
            maxCount={1}
            fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
            beforeUpload={(chosen) => {
              setFile(chosen);
              setError(undefined);
              return false;
            }}
            onRemove={() => setFile(null)}
            data-testid="fw-list-import-upload"
          >
            <Button icon={<UploadOutlined />} data-testid="fw-list-import-choose">
              {t('fw.lists.choose_file')}
            </Button>
          </Upload>
        </Form.Item>
        <Form.Item label={t('fw.remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="fw-list-import-remark" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="fw-list-import-error" />}
    </Modal>
  );
}
