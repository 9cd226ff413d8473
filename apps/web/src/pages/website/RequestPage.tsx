import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, InputNumber, Switch, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { fileTypeModes, fileTypeScopes, type HeaderLimitRule, type WebsiteRequest } from '@rampart/contracts';
import { EmptyHint, addStep } from '../../components/EmptyHint.tsx';
import { errorProps } from '../../components/forms/fieldErrors.tsx';
import { Group, LinesField, NumberField, SelectField, TextField } from './controls.tsx';
import { SettingsTabPage, type FormKit } from './SettingsTab.tsx';

/** Methods, extensions: one per line, or several on a line separated by commas or spaces. */
const tokens = (text: string) => text.split(/[\s,;]+/).map((s) => s.trim()).filter((s) => s !== '');

/** A header rule while edited: the size may be empty. */
type HeaderRuleDraft = Omit<HeaderLimitRule, 'max_bytes'> & { max_bytes: number | null };

function HeaderRules({ kit }: { kit: FormKit<WebsiteRequest> }) {
  const { t } = useTranslation();
  const rules = kit.draft.header_rules as HeaderRuleDraft[];
  const setRules = (next: HeaderRuleDraft[]) => kit.set('header_rules', next);
  const patch = (i: number, change: Partial<HeaderRuleDraft>) => setRules(rules.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const err = (path: string) => errorProps(kit.errors, path, 'web-request');
  return (
    <Form.Item {...err('header_rules')}>
      <Table<HeaderRuleDraft>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rules}
        locale={{ emptyText: <EmptyHint text={t('empty.web.header_rules')} next={addStep(t, !kit.readOnly, t('web.request.header_add'))} /> }}
        data-testid="web-request-header-rules"
        columns={[
          {
            title: t('web.request.header_name'),
            render: (_v, r, i) => (
              <Form.Item style={{ marginBottom: 0 }} {...err(`header_rules.${i}.header`)}>
                <Input value={r.header} disabled={kit.readOnly} placeholder={t('web.ph.header')} onChange={(e) => patch(i, { header: e.target.value })} data-testid={`web-request-header-rule-${i}-header`} />
              </Form.Item>
            ),
          },
          {
            title: t('web.request.header_max'),
            render: (_v, r, i) => (
              <Form.Item style={{ marginBottom: 0 }} {...err(`header_rules.${i}.max_bytes`)}>
                <InputNumber<number> value={r.max_bytes} precision={0} suffix={t('web.unit.bytes')} disabled={kit.readOnly} onChange={(v) => patch(i, { max_bytes: v })} data-testid={`web-request-header-rule-${i}-max`} />
              </Form.Item>
            ),
          },
          {
            title: t('web.enabled'),
            render: (_v, r, i) => <Switch checked={r.enabled} disabled={kit.readOnly} onChange={(on) => patch(i, { enabled: on })} data-testid={`web-request-header-rule-${i}-enabled`} />,
          },
          {
            title: t('web.actions'),
            render: (_v, _r, i) =>
              kit.readOnly ? null : (
                <Button icon={<DeleteOutlined />} aria-label={t('web.delete')} onClick={() => setRules(rules.filter((_x, j) => j !== i))} data-testid={`web-request-header-rule-${i}-remove`} />
              ),
          },
        ]}
      />
      {!kit.readOnly && (
        <Button
          style={{ marginTop: 8 }}
          icon={<PlusOutlined />}
          onClick={() => setRules([...rules, { id: Math.max(0, ...rules.map((r) => r.id)) + 1, enabled: true, header: '', max_bytes: 4096 }])}
          data-testid="web-request-header-rule-add"
        >
          {t('web.request.header_add')}
        </Button>
      )}
    </Form.Item>
  );
}

/** Request: methods denied, size limits, header limits, upload types, the web-shell scan of uploads, file types. */
export function RequestPage() {
  const { t } = useTranslation();
  const bytes = t('web.unit.bytes');
  const unlimited = t('web.hint.zero_unlimited');
  return (
    <SettingsTabPage<'request'>
      tab="request"
      render={(kit) => (
        <>
          <Group kit={kit} name="methods" title={t('web.request.denied_methods')} hint={t('web.request.denied_methods_hint')}>
            <LinesField kit={kit} path="denied_methods" label={t('web.request.methods')} join=", " split={tokens} rows={2} placeholder={t('web.ph.methods')} />
          </Group>
          <Group kit={kit} name="limits" title={t('web.request.limits')} hint={unlimited}>
            <Flex gap={24} wrap>
              <NumberField kit={kit} path="limits.url_bytes" label={t('web.request.url_bytes')} unit={bytes} />
              <NumberField kit={kit} path="limits.header_bytes" label={t('web.request.header_bytes')} unit={bytes} />
              <NumberField kit={kit} path="limits.post_bytes" label={t('web.request.post_bytes')} unit={bytes} />
              <NumberField kit={kit} path="limits.snapshot_bytes" label={t('web.request.snapshot_bytes')} unit={bytes} />
            </Flex>
          </Group>
          <Group kit={kit} name="header_rules" title={t('web.request.header_rules')} hint={t('web.request.header_rules_hint')}>
            <HeaderRules kit={kit as FormKit<WebsiteRequest>} />
          </Group>
          <Group kit={kit} name="upload" title={t('web.request.upload')} hint={t('web.request.upload_hint')} enabled="upload.enabled">
            <TextField kit={kit} path="upload.types" label={t('web.request.upload_types')} placeholder={t('web.ph.upload_types')} />
          </Group>
          <Group kit={kit} name="upload_scan" title={t('web.request.upload_scan')} hint={t('web.request.upload_scan_hint')} enabled="upload_scan.enabled" />
          <Group kit={kit} name="file_types" title={t('web.request.file_types')} hint={t('web.request.file_types_hint')} enabled="file_types.enabled">
            <Flex gap={24} wrap>
              <SelectField kit={kit} path="file_types.mode" label={t('web.request.file_mode')} values={fileTypeModes} labelOf={(v) => t(`web.file_mode.${v}`)} />
              <SelectField kit={kit} path="file_types.scope" label={t('web.request.file_scope')} values={fileTypeScopes} labelOf={(v) => t(`web.file_scope.${v}`)} />
            </Flex>
            <LinesField kit={kit} path="file_types.extensions" label={t('web.request.extensions')} join=", " split={tokens} rows={2} hint={t('web.hint.extensions')} />
          </Group>
        </>
      )}
    />
  );
}
