import { CheckCircleOutlined, DeleteOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProcessRule, ProcessRuleInput, RuleState } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { OpTags } from '../tamper/OpTags.tsx';
import { PathText, StateTag } from '../tamper/StateTag.tsx';
import { addProcessRule, deleteProcessRules, editProcessRule, fetchProcessRules, fetchProcessStatus, processKey, setProcessRulesEnabled } from './api.ts';
import { ProcessRuleModal } from './ProcessRuleModal.tsx';
import { checkProcessRule, formField, newProcessDraft, processDraftOf, type ProcessRuleDraft } from './processForm.ts';

interface Editing {
  id: number | undefined;
  draft: ProcessRuleDraft;
}

/** Process protection: rules by executable (start, network, file access) with the network engine's status above them. */
export function ProcessPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('process', 'add');
  const canEdit = useCan('process', 'edit');
  const canDelete = useCan('process', 'delete');
  const canEnable = useCan('process', 'enable');
  const canDisable = useCan('process', 'disable');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const list = useQuery({ queryKey: [...processKey, 'rules', query], queryFn: () => fetchProcessRules(query), placeholderData: keepPreviousData });
  const status = useQuery({ queryKey: [...processKey, 'status'], queryFn: fetchProcessStatus });
  const rows = list.data?.list ?? [];
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: processKey });

  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: () => setSelected([]), onSettled: refresh });
  const save = useMutation({
    mutationFn: ({ id, rule }: { id: number | undefined; rule: ProcessRuleInput }) => (id === undefined ? addProcessRule(rule) : editProcessRule(id, rule)),
    onSuccess: () => {
      setEditing(null);
      setErrors({});
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [formField(field)]: e.message });
    },
    onSettled: refresh,
  });

  const onSave = (draft: ProcessRuleDraft) => {
    if (!editing) return;
    setEditing({ ...editing, draft });
    const checked = checkProcessRule(draft, lang);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate({ id: editing.id, rule: checked.rule });
  };
  const open = (id: number | undefined, draft: ProcessRuleDraft) => {
    setErrors({});
    setEditing({ id, draft });
  };
  const confirmBulk = (kind: 'enable' | 'disable' | 'delete', ids: number[]) =>
    modal.confirm({
      title: t(`proc.${kind}_title`),
      content: t(`proc.${kind}_confirm`, { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: kind !== 'enable', ...testId(`process-rule-${kind}-confirm`) },
      onOk: () => change.mutateAsync(() => (kind === 'delete' ? deleteProcessRules(ids) : setProcessRulesEnabled(ids, kind === 'enable'))).catch(() => undefined),
    });

  const columns: TableColumnsType<ProcessRule> = [
    {
      key: 'process', title: t('proc.process'), dataIndex: 'process', width: 200,
      render: (v: string, r) => (
        <Space orientation="vertical" size={0}>
          <PathText path={v} />
          {r.whitelist.length > 0 && <Typography.Text type="secondary">{`${t('proc.whitelist')}: ${r.whitelist.join(', ')}`}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'limits', title: t('proc.limits'), width: 220,
      render: (_v, r) => (
        <Space wrap size={4} data-testid={`process-limits-${r.id}`}>
          {r.deny_start && <Tag color="red">{t('proc.deny_start')}</Tag>}
          {r.deny_tcp && <Tag color="orange">{t('proc.deny_tcp')}</Tag>}
          {r.deny_udp && <Tag color="orange">{t('proc.deny_udp')}</Tag>}
          {(r.deny_tcp || r.deny_udp) && r.allow_ips.length + r.allow_areas.length > 0 && <Typography.Text type="secondary">{t('proc.allowed_count', { count: r.allow_ips.length + r.allow_areas.length })}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'files', title: t('proc.files'), width: 220,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          {r.files.map((f, i) => (
            <Space key={i} size={4}>
              <PathText path={f.path} />
              <Typography.Text type="secondary">{`${t(`proc.action.${f.action}`)} · ${f.level}`}</Typography.Text>
              <OpTags ops={f.ops} testId={`process-file-ops-${r.id}-${i}`} />
            </Space>
          ))}
        </Space>
      ),
    },
    {
      key: 'enabled', title: t('proc.enabled'), dataIndex: 'enabled', width: 84,
      render: (v: boolean, r) => (
        <Switch size="small" checked={v} disabled={v ? !canDisable : !canEnable} loading={change.isPending} onChange={(on) => change.mutate(() => setProcessRulesEnabled([r.id], on))} data-testid={`process-rule-switch-${r.id}`} />
      ),
    },
    { key: 'state', title: t('proc.state'), dataIndex: 'state', width: 100, render: (v: RuleState, r) => <StateTag state={v} id={r.id} /> },
    { key: 'net_state', title: t('proc.net_state'), dataIndex: 'net_state', width: 100, render: (v: RuleState, r) => <StateTag state={v} id={-r.id} /> },
    { key: 'remark', title: t('proc.remark'), dataIndex: 'remark', width: 120, ellipsis: { showTitle: true }, render: (v: string) => v || '-' },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('proc.actions'), width: 112, fixed: 'end',
      render: (_v, r) => (
        <Space>
          {canEdit && <Typography.Link onClick={() => open(r.id, processDraftOf(r))} data-testid={`process-rule-edit-${r.id}`}>{t('fw.edit')}</Typography.Link>}
          {canDelete && <Typography.Link type="danger" onClick={() => confirmBulk('delete', [r.id])} data-testid={`process-rule-delete-${r.id}`}>{t('fw.delete')}</Typography.Link>}
        </Space>
      ),
    });
  }
  const none = selected.length === 0;

  return (
    <Flex vertical gap={16} data-testid="process-rules-page">
      {status.data && !status.data.net && <Alert type="warning" showIcon title={t('proc.net_off')} data-testid="process-net-off" />}
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined, newProcessDraft())} data-testid="process-rule-add">{t('proc.add')}</Button>}
          {canEnable && <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => confirmBulk('enable', selected)} data-testid="process-rule-enable">{t('proc.enable_selected')}</Button>}
          {canDisable && <Button icon={<StopOutlined />} disabled={none} onClick={() => confirmBulk('disable', selected)} data-testid="process-rule-disable">{t('proc.disable_selected')}</Button>}
          {canDelete && <Button danger icon={<DeleteOutlined />} disabled={none} onClick={() => confirmBulk('delete', selected)} data-testid="process-rule-delete">{t('fw.delete_selected')}</Button>}
          <SelectedCount prefix="process-rule" count={selected.length} />
        </Space>
        <KeywordSearch prefix="process-rule" placeholder={t('proc.search_placeholder')} onSearch={(keyword) => {
          setSelected([]);
          setQuery((q) => ({ ...q, keyword, page: 1 }));
        }} />
      </Flex>
      <PagedSelectableTable<ProcessRule>
        prefix="process-rule"
        columns={columns}
        rows={rows}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        empty={{ text: t('empty.proc'), next: addStep(t, canAdd, t('proc.add')) }}
        selectable={canEnable || canDisable || canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {editing && (
        <ProcessRuleModal
          key={editing.id ?? 'new'}
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
