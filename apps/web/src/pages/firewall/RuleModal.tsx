import { Alert, Flex, Form, Input, InputNumber, Modal, Radio, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firewallProtocols, searchAreas, type FirewallDirection, type FirewallProtocol, type FirewallVerdict } from '@rampart/contracts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { ruleAreaName, useCommonAreas } from './commonAreas.ts';
import { deniesEverything, takesPorts, type RuleDraft } from './ruleForm.ts';

/** How many areas the picker offers for one search. */
const areaChoices = 50;

/** Add or edit one rule. Errors are by field (`ips` names the bad line); the parent checks and sends. */
export function RuleModal({ direction, initial, editing, errors, saving, onErrors, onSave, onClose }: {
  direction: FirewallDirection;
  initial: RuleDraft;
  editing: boolean;
  errors: FieldErrors;
  saving: boolean;
  onErrors: (errors: FieldErrors) => void;
  onSave: (draft: RuleDraft) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const [areaSearch, setAreaSearch] = useState('');
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    onErrors(withoutError(key === 'areas' ? withoutError(errors, 'ips') : errors, key));
  };
  const err = (key: string) => errorProps(errors, key, 'fw-rule');
  const portsOn = takesPorts(draft.protocol);
  const dir = direction === 'in' ? 'in' : 'out';

  const common = useCommonAreas();
  const needle = areaSearch.trim().toLowerCase();
  // Common areas (system settings) first, by the name they were given; then countries and provinces.
  const commonMatches = common.filter((area) => needle === '' || area.name.toLowerCase().includes(needle));
  const matches = [
    ...commonMatches.map((area) => ({ code: area.code, name: t('sys_areas.picker_label', { name: area.name }) })),
    ...searchAreas(areaSearch, lang, areaChoices),
  ];
  const areaOptions = [
    // Chosen areas outside the current matches still need their names.
    ...draft.areas.filter((code) => !matches.some((m) => m.code === code)).map((code) => ({ value: code, label: ruleAreaName(code, lang, common) })),
    ...matches.map((m) => ({ value: m.code, label: m.name, 'data-testid': `fw-rule-area-${m.code.replace(':', '-')}` })),
  ];

  return (
    <Modal
      open
      title={t(editing ? `fw.rule.edit_title_${dir}` : `fw.rule.add_title_${dir}`)}
      okText={t('fw.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, ...testId('fw-rule-save') }}
      cancelButtonProps={testId('fw-rule-cancel')}
      onOk={() => onSave(draft)}
      onCancel={onClose}
      mask={{ closable: false }}
      width={640}
      destroyOnHidden
    >
      {deniesEverything(draft, direction) && (
        <Alert type="warning" showIcon title={t('fw.rule.deny_all_warning')} style={{ marginBottom: 16 }} data-testid="fw-rule-deny-all" />
      )}
      <Form layout="vertical" data-testid="fw-rule-form">
        <Flex gap={16}>
          <Form.Item label={t('fw.rule.protocol')} style={{ width: 180 }} {...err('protocol')}>
            <Select
              value={draft.protocol}
              onChange={(v: FirewallProtocol) => set('protocol', v)}
              options={firewallProtocols.map((p) => ({ value: p, label: t(`fw.protocol.${p}`), 'data-testid': `fw-rule-protocol-${p}` }))}
              data-testid="fw-rule-protocol"
            />
          </Form.Item>
          <Form.Item label={t(`fw.rule.ports_${dir}`)} style={{ flex: 1 }} {...err('ports')} extra={errors.ports ? undefined : t(portsOn ? 'fw.rule.ports_hint' : 'fw.rule.ports_none')}>
            <Input
              value={portsOn ? draft.ports : '*'}
              disabled={!portsOn}
              placeholder={t('fw.rule.ports_placeholder')}
              onChange={(e) => set('ports', e.target.value)}
              data-testid="fw-rule-ports"
            />
          </Form.Item>
        </Flex>
        <Form.Item label={t(`fw.rule.ips_${dir}`)} {...err('ips')} extra={errors.ips ? undefined : t('fw.rule.ips_hint')}>
          <Input.TextArea
            rows={4}
            value={draft.ips}
            placeholder={t('fw.rule.ips_placeholder')}
            onChange={(e) => set('ips', e.target.value)}
            data-testid="fw-rule-ips"
          />
        </Form.Item>
        <Form.Item label={t(`fw.rule.areas_${dir}`)} {...err('areas')}>
          <Select
            mode="multiple"
            allowClear
            value={draft.areas}
            placeholder={t('fw.rule.areas_placeholder')}
            showSearch={{ filterOption: false, onSearch: setAreaSearch }}
            onChange={(codes: string[]) => {
              set('areas', codes);
              setAreaSearch('');
            }}
            options={areaOptions}
            data-testid="fw-rule-areas"
          />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item label={t('fw.rule.action')} {...err('action')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              value={draft.action}
              onChange={(e) => set('action', e.target.value as FirewallVerdict)}
              options={(['allow', 'deny'] as const).map((a) => ({ value: a, label: <span data-testid={`fw-rule-action-${a}`}>{t(`fw.action.${a}`)}</span> }))}
            />
          </Form.Item>
          <Form.Item label={t('fw.rule.priority')} {...err('priority')} extra={errors.priority ? undefined : t('fw.rule.priority_hint')}>
            <InputNumber<number> style={{ width: 120 }} value={draft.priority} onChange={(v) => set('priority', v)} data-testid="fw-rule-priority" />
          </Form.Item>
          <Form.Item label={t('fw.rule.enabled')}>
            <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} data-testid="fw-rule-enabled" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('fw.remark')} {...err('remark')}>
          <Input value={draft.remark} maxLength={200} onChange={(e) => set('remark', e.target.value)} data-testid="fw-rule-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
