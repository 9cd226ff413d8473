import { AppstoreAddOutlined, CheckCircleOutlined, DeleteOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Switch, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RuleState, TamperRule, TamperRuleInput } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { addTamperRules, deleteTamperRules, editTamperRule, fetchTamperRules, setTamperRulesEnabled, tamperKey } from './api.ts';
import { confirmBroadPaths } from './confirmBroad.ts';
import { GuardBanner } from './GuardBanner.tsx';
import { OpTags } from './OpTags.tsx';
import { RuleModal } from './RuleModal.tsx';
import { PathText, StateTag } from './StateTag.tsx';
import { checkTamperRule, formField, newTamperDraft, tamperDraftOf, type TamperRuleDraft } from './ruleForm.ts';
import { TemplateModal } from './TemplateModal.tsx';

interface Editing {
  id: number | undefined;
  draft: TamperRuleDraft;
}

/** The index tab: protected directories (file rules) with the guard's status above them. */
export function RulesPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('tamper', 'add');
  const canEdit = useCan('tamper', 'edit');
  const canDelete = useCan('tamper', 'delete');
  const canEnable = useCan('tamper', 'enable');
  const canDisable = useCan('tamper', 'disable');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [templateOpen, setTemplateOpen] = useState(false);
  const list = useQuery({ queryKey: [...tamperKey, 'rules', query], queryFn: () => fetchTamperRules(query), placeholderData: keepPreviousData });
  const rows = list.data?.list ?? [];
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tamperKey });

  const change = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => setSelected([]),
    onSettled: refresh,
  });
  const save = useMutation({
    mutationFn: ({ id, rule, confirmations }: { id: number | undefined; rule: TamperRuleInput; confirmations: number }) =>
      id === undefined ? addTamperRules([rule], confirmations) : editTamperRule(id, rule, confirmations),
    onSuccess: () => {
      setEditing(null);
      setErrors({});
    },
    onError: (e) => {
      // HTTP 400 names the field (`rules.0.level`); the message is in the user's language already.
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [formField(field)]: e.message });
    },
    onSettled: refresh,
  });
  const addTemplate = useMutation({
    mutationFn: ({ rules, confirmations }: { rules: TamperRuleInput[]; confirmations: number }) => addTamperRules(rules, confirmations),
    onSuccess: () => setTemplateOpen(false),
    onSettled: refresh,
  });

  const onSave = async (draft: TamperRuleDraft) => {
    if (!editing) return;
    setEditing({ ...editing, draft });
    const checked = checkTamperRule(draft, lang);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const confirmations = await confirmBroadPaths(modal, t, [checked.rule.path ?? '']);
    if (confirmations !== null) save.mutate({ id: editing.id, rule: checked.rule, confirmations });
  };
  const onAddTemplate = async (rules: TamperRuleInput[]) => {
    const confirmations = await confirmBroadPaths(modal, t, rules.map((r) => r.path ?? ''));
    if (confirmations !== null) addTemplate.mutate({ rules, confirmations });
  };
  const open = (id: number | undefined, draft: TamperRuleDraft) => {
    setErrors({});
    setEditing({ id, draft });
  };
  const confirmBulk = (kind: 'enable' | 'disable' | 'delete', ids: number[]) =>
    modal.confirm({
      title: t(`tamper.${kind}_${kind === 'delete' ? 'title' : 'confirm_title'}`),
      content: t(`tamper.${kind}_confirm`, { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: kind !== 'enable', ...testId(`tamper-rule-${kind}-confirm`) },
      onOk: () =>
        change.mutateAsync(() => (kind === 'delete' ? deleteTamperRules(ids) : setTamperRulesEnabled(ids, kind === 'enable'))).catch(() => undefined),
    });

  const columns: TableColumnsType<TamperRule> = [
    { key: 'path', title: t('tamper.rule.path'), dataIndex: 'path', width: 200, render: (v: string) => <PathText path={v} /> },
    { key: 'sub_path', title: t('tamper.rule.sub_path'), dataIndex: 'sub_path', width: 76, render: (v: string) => (v === '*' || v === '' ? t('tamper.any') : v) },
    {
      key: 'process', title: t('tamper.rule.process'), dataIndex: 'process', width: 140,
      render: (v: string, r) => (
        <Space orientation="vertical" size={0}>
          <span>{v === '*' ? t('tamper.any_process') : v}</span>
          {r.exempt.length > 0 && <Typography.Text type="secondary">{`${t('tamper.rule.exempt')}: ${r.exempt.join(t('tamper.list_separator'))}`}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'level', title: t('tamper.rule.level'), dataIndex: 'level', width: 64 },
    { key: 'ops', title: t('tamper.rule.ops'), dataIndex: 'ops', width: 170, render: (ops: TamperRule['ops'], r) => <OpTags ops={ops} testId={`tamper-rule-ops-${r.id}`} /> },
    {
      key: 'enabled', title: t('tamper.rule.enabled'), dataIndex: 'enabled', width: 84,
      render: (v: boolean, r) => (
        <Switch
          size="small"
          checked={v}
          disabled={v ? !canDisable : !canEnable}
          loading={change.isPending}
          onChange={(on) => change.mutate(() => setTamperRulesEnabled([r.id], on))}
          data-testid={`tamper-rule-switch-${r.id}`}
        />
      ),
    },
    { key: 'state', title: t('tamper.rule.state'), dataIndex: 'state', width: 100, render: (v: RuleState, r) => <StateTag state={v} id={r.id} /> },
    { key: 'notify', title: t('tamper.rule.notify_column'), dataIndex: 'notify', width: 76, render: (v: boolean) => t(v ? 'tamper.yes' : 'tamper.no') },
    { key: 'remark', title: t('tamper.rule.remark'), dataIndex: 'remark', width: 120, ellipsis: { showTitle: true }, render: (v: string) => v || '-' },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('tamper.rule.actions'), width: 112, fixed: 'end',
      render: (_v, r) => (
        <Space>
          {canEdit && <Typography.Link onClick={() => open(r.id, tamperDraftOf(r))} data-testid={`tamper-rule-edit-${r.id}`}>{t('fw.edit')}</Typography.Link>}
          {canDelete && <Typography.Link type="danger" onClick={() => confirmBulk('delete', [r.id])} data-testid={`tamper-rule-delete-${r.id}`}>{t('fw.delete')}</Typography.Link>}
        </Space>
      ),
    });
  }
  const none = selected.length === 0;

  return (
    <Flex vertical gap={16} data-testid="tamper-rules-page">
      <GuardBanner />
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined, newTamperDraft())} data-testid="tamper-rule-add">
              {t('tamper.rule.add')}
            </Button>
          )}
          {canAdd && (
            <Button icon={<AppstoreAddOutlined />} onClick={() => setTemplateOpen(true)} data-testid="tamper-template-open">
              {t('tamper.template.add')}
            </Button>
          )}
          {canEnable && (
            <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => confirmBulk('enable', selected)} data-testid="tamper-rule-enable">
              {t('tamper.enable_selected')}
            </Button>
          )}
          {canDisable && (
            <Button icon={<StopOutlined />} disabled={none} onClick={() => confirmBulk('disable', selected)} data-testid="tamper-rule-disable">
              {t('tamper.disable_selected')}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={none} onClick={() => confirmBulk('delete', selected)} data-testid="tamper-rule-delete">
              {t('fw.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix="tamper-rule" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="tamper-rule"
          placeholder={t('tamper.search_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<TamperRule>
        prefix="tamper-rule"
        columns={columns}
        rows={rows}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        scroll={{ x: 1180 }}
        empty={{ text: t('empty.tamper.rule'), next: addStep(t, canAdd, t('tamper.rule.add')) }}
        selectable={canEnable || canDisable || canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {editing && (
        <RuleModal
          key={editing.id ?? 'new'}
          initial={editing.draft}
          editing={editing.id !== undefined}
          errors={errors}
          saving={save.isPending}
          onErrors={setErrors}
          onSave={(draft) => void onSave(draft)}
          onClose={() => setEditing(null)}
        />
      )}
      {templateOpen && <TemplateModal saving={addTemplate.isPending} onAdd={(rules) => void onAddTemplate(rules)} onClose={() => setTemplateOpen(false)} />}
    </Flex>
  );
}
