import { CheckCircleOutlined, DeleteOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NamingRule, NamingRuleInput, RuleState } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { addNamingRule, deleteNamingRules, editNamingRule, fetchNamingRules, setNamingRulesEnabled, tamperKey } from './api.ts';
import { confirmBroadPaths } from './confirmBroad.ts';
import { GuardBanner } from './GuardBanner.tsx';
import { NamingModal } from './NamingModal.tsx';
import { checkNamingRule, foldNameErrors, namingDraftOf, newNamingDraft, type NamingDraft } from './namingForm.ts';
import { formField } from './ruleForm.ts';
import { PathText, StateTag } from './StateTag.tsx';

interface Editing {
  id: number | undefined;
  draft: NamingDraft;
}

/** The name tab: naming rules (protected directory, denied new names, malformed names). */
export function NamingPage() {
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
  const list = useQuery({ queryKey: [...tamperKey, 'names', query], queryFn: () => fetchNamingRules(query), placeholderData: keepPreviousData });
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tamperKey });
  const describe = (name: string, message: string) => t('tamper.naming.name_error', { name, message });

  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: () => setSelected([]), onSettled: refresh });
  const save = useMutation({
    mutationFn: ({ id, rule, confirmations }: { id: number | undefined; rule: NamingRuleInput; confirmations: number }) =>
      id === undefined ? addNamingRule(rule, confirmations) : editNamingRule(id, rule, confirmations),
    onSuccess: () => {
      setEditing(null);
      setErrors({});
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e) && editing) setErrors(foldNameErrors({ [formField(field)]: e.message }, editing.draft, describe));
    },
    onSettled: refresh,
  });

  const onSave = async (draft: NamingDraft) => {
    if (!editing) return;
    setEditing({ ...editing, draft });
    const checked = checkNamingRule(draft, lang, describe);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const confirmations = await confirmBroadPaths(modal, t, [checked.rule.dir]);
    if (confirmations !== null) save.mutate({ id: editing.id, rule: checked.rule, confirmations });
  };
  const open = (id: number | undefined, draft: NamingDraft) => {
    setErrors({});
    setEditing({ id, draft });
  };
  const confirmBulk = (kind: 'enable' | 'disable' | 'delete', ids: number[]) =>
    modal.confirm({
      title: t(`tamper.${kind}_${kind === 'delete' ? 'title' : 'confirm_title'}`),
      content: t(`tamper.${kind}_confirm`, { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: kind !== 'enable', ...testId(`tamper-naming-${kind}-confirm`) },
      onOk: () =>
        change.mutateAsync(() => (kind === 'delete' ? deleteNamingRules(ids) : setNamingRulesEnabled(ids, kind === 'enable'))).catch(() => undefined),
    });

  const names = (values: string[]) =>
    values.length === 0 ? (
      <Typography.Text type="secondary">{t('tamper.naming.no_restriction')}</Typography.Text>
    ) : (
      <Space size={[4, 4]} wrap>{values.map((v) => <Tag key={v}>{v}</Tag>)}</Space>
    );
  const columns: TableColumnsType<NamingRule> = [
    { key: 'dir', title: t('tamper.naming.dir'), dataIndex: 'dir', width: 220, render: (v: string) => <PathText path={v} /> },
    { key: 'deny_dirs', title: t('tamper.naming.deny_dirs'), dataIndex: 'deny_dirs', render: names },
    { key: 'deny_files', title: t('tamper.naming.deny_files'), dataIndex: 'deny_files', render: names },
    {
      key: 'malformed', title: t('tamper.naming.deny_malformed'), dataIndex: 'deny_malformed', width: 120,
      render: (v: boolean) => <Tag color={v ? 'red' : 'default'}>{t(v ? 'tamper.naming.malformed_on' : 'tamper.naming.malformed_off')}</Tag>,
    },
    {
      key: 'enabled', title: t('tamper.rule.enabled'), dataIndex: 'enabled', width: 84,
      render: (v: boolean, r) => (
        <Switch
          size="small"
          checked={v}
          disabled={v ? !canDisable : !canEnable}
          loading={change.isPending}
          onChange={(on) => change.mutate(() => setNamingRulesEnabled([r.id], on))}
          data-testid={`tamper-naming-switch-${r.id}`}
        />
      ),
    },
    { key: 'state', title: t('tamper.rule.state'), dataIndex: 'state', width: 110, render: (v: RuleState, r) => <StateTag state={v} id={r.id} /> },
    { key: 'notify', title: t('tamper.rule.notify_column'), dataIndex: 'notify', width: 76, render: (v: boolean) => t(v ? 'tamper.yes' : 'tamper.no') },
    { key: 'remark', title: t('tamper.rule.remark'), dataIndex: 'remark', width: 140, ellipsis: { showTitle: true }, render: (v: string) => v || '-' },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('tamper.rule.actions'), width: 112, fixed: 'end',
      render: (_v, r) => (
        <Space>
          {canEdit && <Typography.Link onClick={() => open(r.id, namingDraftOf(r))} data-testid={`tamper-naming-edit-${r.id}`}>{t('fw.edit')}</Typography.Link>}
          {canDelete && <Typography.Link type="danger" onClick={() => confirmBulk('delete', [r.id])} data-testid={`tamper-naming-delete-${r.id}`}>{t('fw.delete')}</Typography.Link>}
        </Space>
      ),
    });
  }
  const none = selected.length === 0;

  return (
    <Flex vertical gap={16} data-testid="tamper-naming-page">
      <GuardBanner />
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined, newNamingDraft())} data-testid="tamper-naming-add">
              {t('tamper.naming.add')}
            </Button>
          )}
          {canEnable && (
            <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => confirmBulk('enable', selected)} data-testid="tamper-naming-enable">
              {t('tamper.enable_selected')}
            </Button>
          )}
          {canDisable && (
            <Button icon={<StopOutlined />} disabled={none} onClick={() => confirmBulk('disable', selected)} data-testid="tamper-naming-disable">
              {t('tamper.disable_selected')}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={none} onClick={() => confirmBulk('delete', selected)} data-testid="tamper-naming-delete">
              {t('fw.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix="tamper-naming" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="tamper-naming"
          placeholder={t('tamper.naming.search_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<NamingRule>
        prefix="tamper-naming"
        columns={columns}
        rows={list.data?.list ?? []}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        empty={{ text: t('empty.tamper.naming'), next: addStep(t, canAdd, t('tamper.naming.add')) }}
        selectable={canEnable || canDisable || canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {editing && (
        <NamingModal
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
    </Flex>
  );
}
