import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Select, Steps, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { processActions, tamperOps, type TamperOp } from '@rampart/contracts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { AreaSelect } from '../remote/AreaSelect.tsx';
import { useOpLabel } from '../tamper/GuardBanner.tsx';
import { newFileDraft, stepErrors, stepOf, type FileRuleDraft, type ProcessRuleDraft } from './processForm.ts';

const lastStep = 2;

/** A list typed as tags (addresses, executables). */
function TagsInput({ value, onChange, placeholder, id }: { value: string[]; onChange: (values: string[]) => void; placeholder: string; id: string }) {
  return (
    <Select
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', ' ', '\n']}
      value={value}
      placeholder={placeholder}
      onChange={(values: string[]) => onChange(values.map((v) => v.trim()).filter(Boolean))}
      data-testid={id}
    />
  );
}

/**
 * Add or edit one process rule in three steps: 1. the process, deny start, whitelist, notification
 * and remark; 2. the network (deny TCP / UDP, allowed peers); 3. the file access rules. "Next"
 * checks the steps so far; the parent checks the whole rule on save and an error brings its step back.
 */
export function ProcessRuleModal({ initial, editing, errors, saving, onErrors, onSave, onClose }: {
  initial: ProcessRuleDraft;
  editing: boolean;
  errors: FieldErrors;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: ProcessRuleDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const opLabel = useOpLabel();
  const [draft, setDraft] = useState<ProcessRuleDraft>(initial);
  const [step, setStep] = useState(0);
  const set = <K extends keyof ProcessRuleDraft>(key: K, value: ProcessRuleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(errors, key));
  };
  const setFile = (index: number, file: Partial<FileRuleDraft>) => set('files', draft.files.map((f, i) => (i === index ? { ...f, ...file } : f)));
  const err = (key: string) => errorProps(errors, key, 'process-rule');

  // An error from the save or the server shows the step of its field.
  useEffect(() => {
    const steps = Object.keys(errors).map(stepOf);
    if (steps.length) setStep(Math.min(...steps));
  }, [errors]);

  const next = () => {
    const found = stepErrors(draft, step, lang);
    onErrors(found);
    if (Object.keys(found).length === 0) setStep(step + 1);
  };

  const footer = [
    step === 0
      ? <Button key="cancel" onClick={onClose} {...testId('process-rule-cancel')}>{t('common.cancel')}</Button>
      : <Button key="previous" onClick={() => setStep(step - 1)} {...testId('process-rule-previous')}>{t('proc.previous')}</Button>,
    step < lastStep
      ? <Button key="next" type="primary" onClick={next} {...testId('process-rule-next')}>{t('proc.next')}</Button>
      : <Button key="save" type="primary" loading={saving} onClick={() => onSave(draft)} {...testId('process-rule-save')}>{t('fw.save')}</Button>,
  ];

  return (
    <Modal open title={t(editing ? 'proc.edit_title' : 'proc.add_title')} footer={footer} onCancel={onClose} mask={{ closable: false }} width={720} destroyOnHidden>
      <Steps
        size="small"
        current={step}
        style={{ margin: '8px 0 24px' }}
        items={[{ title: t('proc.step_basic') }, { title: t('proc.step_network') }, { title: t('proc.step_files') }]}
        data-testid="process-rule-steps"
      />
      <Form layout="vertical" data-testid={`process-rule-form-step-${step + 1}`}>
        {step === 0 && (
          <>
            <Form.Item label={t('proc.process')} required {...err('process')} extra={errors.process ? undefined : t('proc.process_hint')}>
              <Input value={draft.process} placeholder={t('proc.process_placeholder')} onChange={(e) => set('process', e.target.value)} data-testid="process-rule-process" />
            </Form.Item>
            <Form.Item label={t('proc.deny_start')} extra={t('proc.deny_start_hint')}>
              <Switch checked={draft.deny_start} onChange={(v) => set('deny_start', v)} data-testid="process-rule-deny-start" />
            </Form.Item>
            <Form.Item label={t('proc.whitelist')} {...err('whitelist')} extra={errors.whitelist ? undefined : t('proc.whitelist_hint')}>
              <TagsInput value={draft.whitelist} onChange={(v) => set('whitelist', v)} placeholder={t('proc.whitelist_placeholder')} id="process-rule-whitelist" />
            </Form.Item>
            <Flex gap={32}>
              <Form.Item label={t('proc.notify')}>
                <Switch checked={draft.notify} onChange={(v) => set('notify', v)} data-testid="process-rule-notify" />
              </Form.Item>
              <Form.Item label={t('proc.enabled')}>
                <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="process-rule-enabled" />
              </Form.Item>
            </Flex>
            <Form.Item label={t('proc.remark')} {...err('remark')}>
              <Input value={draft.remark} maxLength={200} onChange={(e) => set('remark', e.target.value)} data-testid="process-rule-remark" />
            </Form.Item>
          </>
        )}
        {step === 1 && (
          <>
            <Flex gap={32}>
              <Form.Item label={t('proc.deny_tcp')}>
                <Switch checked={draft.deny_tcp} onChange={(v) => set('deny_tcp', v)} data-testid="process-rule-deny-tcp" />
              </Form.Item>
              <Form.Item label={t('proc.deny_udp')}>
                <Switch checked={draft.deny_udp} onChange={(v) => set('deny_udp', v)} data-testid="process-rule-deny-udp" />
              </Form.Item>
            </Flex>
            <Form.Item label={t('proc.allow_ips')} {...err('allow_ips')} extra={errors.allow_ips ? undefined : t('proc.allow_ips_hint')}>
              <TagsInput value={draft.allow_ips} onChange={(v) => set('allow_ips', v)} placeholder="10.0.0.0/8" id="process-rule-allow-ips" />
            </Form.Item>
            <Form.Item label={t('proc.allow_areas')} {...err('allow_areas')} extra={errors.allow_areas ? undefined : t('proc.allow_areas_hint')}>
              <AreaSelect value={draft.allow_areas} onChange={(v) => set('allow_areas', v)} disabled={false} />
            </Form.Item>
          </>
        )}
        {step === 2 && (
          <>
            {draft.files.map((file, index) => (
              <Flex key={index} gap={8} align="start" wrap data-testid={`process-file-${index}`}>
                <Form.Item label={t('proc.file_path')} required style={{ flex: 2, minWidth: 200 }} {...err(`files.${index}.path`)}>
                  <Input value={file.path} placeholder={t('proc.file_path_placeholder')} onChange={(e) => setFile(index, { path: e.target.value })} data-testid={`process-file-path-${index}`} />
                </Form.Item>
                <Form.Item label={t('proc.file_level')} required style={{ width: 90 }} {...err(`files.${index}.level`)}>
                  <InputNumber<number> style={{ width: '100%' }} value={file.level} onChange={(v) => setFile(index, { level: v })} data-testid={`process-file-level-${index}`} />
                </Form.Item>
                <Form.Item label={t('proc.file_action')} style={{ width: 100 }}>
                  <Select value={file.action} onChange={(action) => setFile(index, { action })} options={processActions.map((a) => ({ value: a, label: t(`proc.action.${a}`) }))} data-testid={`process-file-action-${index}`} />
                </Form.Item>
                <Button icon={<DeleteOutlined />} style={{ marginTop: 30 }} aria-label={t('fw.delete')} onClick={() => set('files', draft.files.filter((_f, i) => i !== index))} data-testid={`process-file-remove-${index}`} />
                <Form.Item label={t('proc.file_ops')} style={{ width: '100%' }} {...err(`files.${index}.ops`)}>
                  <Checkbox.Group<TamperOp>
                    value={file.ops}
                    onChange={(ops) => setFile(index, { ops: tamperOps.filter((op) => ops.includes(op)) })}
                    options={tamperOps.map((op) => ({ value: op, label: <span data-testid={`process-file-op-${index}-${op}`}>{opLabel(op)}</span> }))}
                  />
                </Form.Item>
              </Flex>
            ))}
            <Form.Item {...err('files')} extra={t('proc.files_hint')}>
              <Button icon={<PlusOutlined />} onClick={() => set('files', [...draft.files, newFileDraft()])} data-testid="process-file-add">{t('proc.file_add')}</Button>
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
