import { Button, Checkbox, Collapse, Flex, Form, Input, InputNumber, Modal, Select, Steps, Switch, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tamperOps, type TamperOp } from '@rampart/contracts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { useOpLabel } from './GuardBanner.tsx';
import { checkTamperRule, isTargetError, targetErrors, type TamperRuleDraft } from './ruleForm.ts';

/**
 * Add or edit one tamper rule in two steps: 1. the protected path, sub path, process and level;
 * 2. the denied operations, the advanced rules (exempt processes), notification and remark.
 * "Next" checks step 1; the parent checks the whole rule on save and an error of step 1 brings it back.
 */
export function RuleModal({ initial, editing, errors, saving, onErrors, onSave, onClose }: {
  initial: TamperRuleDraft;
  editing: boolean;
  errors: FieldErrors;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: TamperRuleDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const opLabel = useOpLabel();
  const [draft, setDraft] = useState<TamperRuleDraft>(initial);
  const [step, setStep] = useState(0);
  const set = <K extends keyof TamperRuleDraft>(key: K, value: TamperRuleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(errors, key));
  };
  const err = (key: string) => errorProps(errors, key, 'tamper-rule');

  // An error of step 1 (from the save or the server) shows where the field is.
  useEffect(() => {
    if (Object.keys(errors).some(isTargetError)) setStep(0);
  }, [errors]);

  const next = () => {
    const checked = checkTamperRule(draft, lang);
    const stepErrors = 'errors' in checked ? targetErrors(checked.errors) : {};
    onErrors(stepErrors);
    if (Object.keys(stepErrors).length === 0) setStep(1);
  };

  const footer = step === 0
    ? [
        <Button key="cancel" onClick={onClose} {...testId('tamper-rule-cancel')}>{t('common.cancel')}</Button>,
        <Button key="next" type="primary" onClick={next} {...testId('tamper-rule-next')}>{t('tamper.rule.next')}</Button>,
      ]
    : [
        <Button key="previous" onClick={() => setStep(0)} {...testId('tamper-rule-previous')}>{t('tamper.rule.previous')}</Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => onSave(draft)} {...testId('tamper-rule-save')}>{t('fw.save')}</Button>,
      ];

  return (
    <Modal
      open
      title={t(editing ? 'tamper.rule.edit_title' : 'tamper.rule.add_title')}
      footer={footer}
      onCancel={onClose}
      mask={{ closable: false }}
      width={680}
      destroyOnHidden
    >
      <Steps
        size="small"
        current={step}
        style={{ margin: '8px 0 24px' }}
        items={[{ title: t('tamper.rule.step_target') }, { title: t('tamper.rule.step_ops') }]}
        data-testid="tamper-rule-steps"
      />
      <Form layout="vertical" data-testid={`tamper-rule-form-step-${step + 1}`}>
        {step === 0 ? (
          <>
            <Form.Item label={t('tamper.rule.path')} required {...err('path')} extra={errors.path ? undefined : t('tamper.rule.path_hint')}>
              <Input value={draft.path} placeholder={t('tamper.rule.path_placeholder')} onChange={(e) => set('path', e.target.value)} data-testid="tamper-rule-path" />
            </Form.Item>
            <Form.Item label={t('tamper.rule.sub_path')} {...err('sub_path')} extra={errors.sub_path ? undefined : t('tamper.rule.sub_path_hint')}>
              <Input value={draft.sub_path} placeholder="*" onChange={(e) => set('sub_path', e.target.value)} data-testid="tamper-rule-sub-path" />
            </Form.Item>
            <Flex gap={16}>
              <Form.Item label={t('tamper.rule.process')} required style={{ flex: 1 }} {...err('process')} extra={errors.process ? undefined : t('tamper.rule.process_hint')}>
                <Input value={draft.process} placeholder="*" onChange={(e) => set('process', e.target.value)} data-testid="tamper-rule-process" />
              </Form.Item>
              <Form.Item label={t('tamper.rule.level')} required style={{ width: 160 }} {...err('level')} extra={errors.level ? undefined : t('tamper.rule.level_hint')}>
                <InputNumber<number> style={{ width: '100%' }} value={draft.level} onChange={(v) => set('level', v)} data-testid="tamper-rule-level" />
              </Form.Item>
            </Flex>
          </>
        ) : (
          <>
            <Form.Item label={t('tamper.rule.ops')} {...err('ops')} extra={errors.ops ? undefined : t('tamper.rule.ops_hint')}>
              <Checkbox.Group<TamperOp>
                value={draft.ops}
                onChange={(ops) => set('ops', tamperOps.filter((op) => ops.includes(op)))}
                options={tamperOps.map((op) => ({
                  value: op,
                  label: <Tooltip title={t(`tamper.op_hint.${op}`)}><span data-testid={`tamper-rule-op-${op}`}>{opLabel(op)}</span></Tooltip>,
                }))}
              />
            </Form.Item>
            <Collapse
              size="small"
              style={{ marginBottom: 16 }}
              defaultActiveKey={draft.exempt.length > 0 ? ['advanced'] : []}
              items={[{
                key: 'advanced',
                label: <span data-testid="tamper-rule-advanced">{t('tamper.rule.advanced')}</span>,
                children: (
                  <Form.Item label={t('tamper.rule.exempt')} style={{ marginBottom: 0 }} {...err('exempt')} extra={errors.exempt ? undefined : t('tamper.rule.exempt_hint')}>
                    <Select
                      mode="tags"
                      open={false}
                      suffixIcon={null}
                      tokenSeparators={[',', ' ', '\n']}
                      value={draft.exempt}
                      placeholder={t('tamper.rule.exempt_placeholder')}
                      onChange={(values: string[]) => set('exempt', values.map((v) => v.trim()).filter(Boolean))}
                      data-testid="tamper-rule-exempt"
                    />
                  </Form.Item>
                ),
              }]}
            />
            <Flex gap={32}>
              <Form.Item label={t('tamper.rule.notify')} tooltip={t('tamper.rule.notify_hint')}>
                <Switch checked={draft.notify} onChange={(v) => set('notify', v)} data-testid="tamper-rule-notify" />
              </Form.Item>
              <Form.Item label={t('tamper.rule.enabled')}>
                <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="tamper-rule-enabled" />
              </Form.Item>
            </Flex>
            <Form.Item label={t('tamper.rule.remark')} {...err('remark')}>
              <Input value={draft.remark} maxLength={200} onChange={(e) => set('remark', e.target.value)} data-testid="tamper-rule-remark" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
