import { CheckCircleOutlined, DeleteOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commonAreaIdOf, type FirewallChange, type FirewallDirection, type FirewallRule, type FirewallRuleInput } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { addStep } from '../../components/EmptyHint.tsx';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { addRule, defaultPageSize, deleteRules, editRule, fetchRules, firewallKey, setRulesEnabled, type PageQuery } from './api.ts';
import { FirewallTab, useReportChange } from './FirewallTab.tsx';
import { foldLineErrors, useClampPage, type EntryLine } from './forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from './parts.tsx';
import { ruleAreaName, useCommonAreas } from './commonAreas.ts';
import { RuleModal } from './RuleModal.tsx';
import { checkRule, draftOf, newRuleDraft, ruleLines, takesPorts, type RuleDraft } from './ruleForm.ts';

interface Editing {
  /** The rule being edited; undefined for a new one. */
  id: number | undefined;
  draft: RuleDraft;
}

function RulesList({ direction }: { direction: FirewallDirection }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const commonAreas = useCommonAreas();
  const { modal } = App.useApp();
  const report = useReportChange();
  const canAdd = useCan('firewall', 'add');
  const canEdit = useCan('firewall', 'edit');
  const canDelete = useCan('firewall', 'delete');
  const canEnable = useCan('firewall', 'enable');
  const canDisable = useCan('firewall', 'disable');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const list = useQuery({
    queryKey: [...firewallKey, 'rules', direction, query],
    queryFn: () => fetchRules(direction, query),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const dir = direction === 'in' ? 'in' : 'out';
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });

  /** Bulk changes and switches: the answer goes to the tab (probation, warnings, refresh). */
  const change = useMutation({
    mutationFn: (run: () => Promise<FirewallChange>) => run(),
    onSuccess: (data) => {
      setSelected([]);
      report(data);
    },
  });
  const save = useMutation({
    mutationFn: ({ id, rule }: { id: number | undefined; rule: FirewallRuleInput }) => (id === undefined ? addRule(rule) : editRule(id, rule)),
    onSuccess: (data) => {
      setEditing(null);
      setErrors({});
      report(data);
    },
    onError: (e) => {
      // HTTP 400 names the field (`ips.2` is the third address); the message is in the user's language already.
      const field = errorField(e);
      if (!field || !isApiError(e) || !editing) return;
      setErrors(foldLineErrors({ [field]: e.message }, 'ips', ruleLines(editing.draft), describeLine));
    },
  });

  const onSave = (draft: RuleDraft) => {
    if (!editing) return;
    setEditing({ ...editing, draft });
    const checked = checkRule(draft, direction, lang, describeLine);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate({ id: editing.id, rule: checked.rule });
  };
  const open = (id: number | undefined, draft: RuleDraft) => {
    setErrors({});
    setEditing({ id, draft });
  };
  const confirmDelete = (ids: number[]) =>
    modal.confirm({
      title: t('fw.rule.delete_title'),
      content: t('fw.rule.delete_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('fw-rule-delete-confirm') },
      onOk: () => change.mutateAsync(() => deleteRules(ids)).catch(() => undefined),
    });

  const targets = (rule: FirewallRule) => (
    <Space size={[4, 4]} wrap>
      {rule.ips.map((ip) => (
        <Tag key={ip}>{ip === '*' ? t('fw.rule.all_addresses') : ip}</Tag>
      ))}
      {rule.areas.map((code) => (
        <Tag key={code} color={commonAreaIdOf(code) === null ? 'blue' : 'geekblue'} data-testid={`fw-rule-area-tag-${rule.id}-${code.replace(':', '-')}`}>
          {ruleAreaName(code, lang, commonAreas)}
        </Tag>
      ))}
    </Space>
  );
  const columns: TableColumnsType<FirewallRule> = [
    { key: 'priority', title: t('fw.rule.priority'), dataIndex: 'priority', width: 80 },
    { key: 'protocol', title: t('fw.rule.protocol'), dataIndex: 'protocol', width: 100, render: (v: FirewallRule['protocol']) => t(`fw.protocol.${v}`) },
    {
      key: 'ports', title: t(`fw.rule.ports_${dir}`), dataIndex: 'ports', width: 140,
      render: (v: string, r) => (!takesPorts(r.protocol) ? '-' : v === '*' ? t('fw.rule.all_ports') : v),
    },
    { key: 'targets', title: t(`fw.rule.targets_${dir}`), render: (_v, r) => targets(r) },
    {
      key: 'action', title: t('fw.rule.action'), dataIndex: 'action', width: 90,
      render: (v: FirewallRule['action'], r) => <Tag color={v === 'allow' ? 'green' : 'red'} data-testid={`fw-rule-action-tag-${r.id}`}>{t(`fw.action.${v}`)}</Tag>,
    },
    {
      key: 'enabled', title: t('fw.rule.enabled'), dataIndex: 'enabled', width: 90,
      render: (v: boolean, r) => (
        <Switch
          size="small"
          checked={v}
          disabled={v ? !canDisable : !canEnable}
          loading={change.isPending}
          onChange={(on) => change.mutate(() => setRulesEnabled([r.id], on))}
          data-testid={`fw-rule-switch-${r.id}`}
        />
      ),
    },
    { key: 'remark', title: t('fw.remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
    { key: 'updated', title: t('fw.rule.updated_at'), dataIndex: 'updated_at', width: 170, render: (v: number) => formatDateTime(v) },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('fw.actions'), width: 120,
      render: (_v, r) => (
        <Space>
          {canEdit && (
            <Typography.Link onClick={() => open(r.id, draftOf(r))} data-testid={`fw-rule-edit-${r.id}`}>
              {t('fw.edit')}
            </Typography.Link>
          )}
          {canDelete && (
            <Typography.Link type="danger" onClick={() => confirmDelete([r.id])} data-testid={`fw-rule-delete-${r.id}`}>
              {t('fw.delete')}
            </Typography.Link>
          )}
        </Space>
      ),
    });
  }
  const selectable = canEnable || canDisable || canDelete;
  const none = selected.length === 0;

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined, newRuleDraft())} data-testid="fw-rule-add">
              {t(`fw.rule.add_${dir}`)}
            </Button>
          )}
          {canEnable && (
            <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => change.mutate(() => setRulesEnabled(selected, true))} data-testid="fw-rule-enable">
              {t('fw.rule.enable_selected')}
            </Button>
          )}
          {canDisable && (
            <Button icon={<StopOutlined />} disabled={none} onClick={() => change.mutate(() => setRulesEnabled(selected, false))} data-testid="fw-rule-disable">
              {t('fw.rule.disable_selected')}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={none} onClick={() => confirmDelete(selected)} data-testid="fw-rule-delete">
              {t('fw.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix="fw-rule" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="fw-rule"
          placeholder={t('fw.rule.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<FirewallRule>
        prefix="fw-rule"
        columns={columns}
        rows={rows}
        total={total}
        loading={list.isFetching}
        scroll={{ x: 1100 }}
        empty={{ text: t(`empty.fw.rule_${dir}`), next: addStep(t, canAdd, t(`fw.rule.add_${dir}`)) }}
        selectable={selectable}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {editing && (
        <RuleModal
          key={editing.id ?? 'new'}
          direction={direction}
          initial={editing.draft}
          editing={editing.id !== undefined}
          errors={errors}
          saving={save.isPending}
          onErrors={setErrors}
          onSave={onSave}
          onClose={() => setEditing(null)}
        />
      )}
    </Flex>
  );
}

/** Inbound or outbound rules: list, search, bulk switches and deletion, add and edit. */
export function RulesPage({ direction }: { direction: FirewallDirection }) {
  return (
    <FirewallTab testId={`fw-rules-${direction}-page`}>
      <RulesList key={direction} direction={direction} />
    </FirewallTab>
  );
}

export function RuleInPage() {
  return <RulesPage direction="in" />;
}

export function RuleOutPage() {
  return <RulesPage direction="out" />;
}
