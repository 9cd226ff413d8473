import { CloudUploadOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backupRulesInputSchema, backupSubdirectory, type BackupRuleInput, type BackupRuleView, type Language } from '@rampart/contracts';
import { fetchBackupRules, runBackup, saveBackupRules, type BackupRules, type BackupRunResult } from '../../api/endpoints.ts';
import { errorField, isApiError } from '../../api/errors.ts';
import { EmptyHint, addStep } from '../../components/EmptyHint.tsx';
import { issuesToErrors, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { archiveDir, BackupRuleModal, newRuleDraft, type RuleDraft } from './BackupRuleModal.tsx';

export const backupRulesKey = ['system', 'log_backup'] as const;

/** A stored rule as the schema takes it back: blank secrets keep the stored ones. */
function toInput(view: BackupRuleView): BackupRuleInput {
  return {
    id: view.id, enabled: view.enabled, type: view.type, bucket: view.bucket, domain: view.domain, ip: view.ip, port: view.port,
    username: view.username, password: '', access_id: view.access_id, access_secret: '', save_path: view.save_path, remark: view.remark,
  };
}

/** The whole list after one change, checked with the schema the server uses. */
function validate(rules: readonly (BackupRuleInput | RuleDraft)[], lang: Language): { rules: BackupRuleInput[] } | { errors: FieldErrors } {
  const parsed = backupRulesInputSchema.safeParse({ rules });
  return parsed.success ? { rules: parsed.data.rules } : { errors: issuesToErrors(parsed.error.issues, lang) };
}

/** Errors of the list (`rules.2.bucket`) for the rule at `index`: by field, and one about the rule as a whole. */
function splitErrors(all: FieldErrors, index: number): { fields: FieldErrors; general: string | undefined } {
  const prefix = `rules.${index}.`;
  const fields = Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
  // Duplicates are flagged on the later of the two rules, which may not be this one; other rules' field errors should not happen.
  const rest = Object.entries(all).filter(([k]) => !k.startsWith(prefix));
  const general = all[`rules.${index}`] ?? rest.find(([k]) => /^rules(\.\d+)?$/.test(k))?.[1] ?? rest[0]?.[1];
  return { fields, general };
}

interface Editing {
  /** Position in the list; the list's length for a new rule. */
  index: number;
  draft: RuleDraft;
  view: BackupRuleView | undefined;
}

/** Log backup rules (GET/POST /system/log_backup) and "back up now". Every change saves the whole list. */
export function BackupRulesPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const rules = useQuery({ queryKey: backupRulesKey, queryFn: fetchBackupRules });
  const views = rules.data?.rules ?? [];
  const [editing, setEditing] = useState<Editing | null>(null);
  const [modalErrors, setModalErrors] = useState<FieldErrors>({});
  const [listError, setListError] = useState<string | undefined>();
  const [results, setResults] = useState<BackupRunResult['results'] | null>(null);

  const save = useMutation({
    mutationFn: (list: BackupRuleInput[]) => saveBackupRules(list),
    onSuccess: (saved: BackupRules | undefined) => {
      if (saved?.rules) queryClient.setQueryData(backupRulesKey, saved);
      else void queryClient.invalidateQueries({ queryKey: backupRulesKey });
      setEditing(null);
      setModalErrors({});
      setListError(undefined);
    },
    onError: (e) => {
      const field = errorField(e);
      const all: FieldErrors = field && isApiError(e) ? { [field]: e.message } : {};
      if (editing && field) setModalErrors(all);
      else if (field) setListError(Object.values(all)[0]);
    },
  });
  const run = useMutation({
    mutationFn: runBackup,
    onSuccess: (data) => {
      setResults(data?.results ?? []);
      void queryClient.invalidateQueries({ queryKey: backupRulesKey });
    },
  });

  /** Saves the list with one change; messages go on the form when editing, above the table otherwise. */
  const saveList = (list: (BackupRuleInput | RuleDraft)[]) => {
    const checked = validate(list, lang);
    if ('errors' in checked) {
      if (editing) setModalErrors(checked.errors);
      else setListError(Object.values(checked.errors)[0]);
      return;
    }
    setModalErrors({});
    setListError(undefined);
    save.mutate(checked.rules);
  };

  const inputs = () => views.map(toInput);
  const toggle = (index: number, enabled: boolean) => saveList(inputs().map((r, i) => (i === index ? { ...r, enabled } : r)));
  const remove = (index: number) =>
    modal.confirm({
      title: t('backup.delete_title'),
      content: t('backup.delete_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('backup-delete-confirm') },
      onOk: () => {
        const list = inputs().filter((_r, i) => i !== index);
        const checked = validate(list, lang);
        if ('rules' in checked) return save.mutateAsync(checked.rules).catch(() => undefined);
        setListError(Object.values(checked.errors)[0]);
      },
    });
  const saveDraft = (draft: RuleDraft) => {
    if (!editing) return;
    const list: (BackupRuleInput | RuleDraft)[] = inputs();
    list[editing.index] = draft;
    saveList(list);
  };

  const host = (r: BackupRuleView) => [r.domain, r.ip].filter(Boolean).join(' / ') || '-';
  const columns: TableColumnsType<BackupRuleView> = [
    { key: 'type', title: t('backup.col.type'), dataIndex: 'type', width: 80, render: (v: BackupRuleView['type']) => <Tag>{t(`backup.type.${v}`)}</Tag> },
    { key: 'bucket', title: t('backup.col.bucket'), dataIndex: 'bucket', render: (v: string) => v || '-' },
    { key: 'host', title: t('backup.col.host'), render: (_v, r) => host(r) },
    { key: 'port', title: t('backup.col.port'), dataIndex: 'port', width: 80 },
    { key: 'username', title: t('backup.col.username'), render: (_v, r) => (r.type === 's3' ? r.access_id : r.username) || '-' },
    { key: 'save_path', title: t('backup.col.save_path'), dataIndex: 'save_path', render: (v: string) => <Typography.Text code>{archiveDir(v)}</Typography.Text> },
    {
      key: 'enabled', title: t('backup.col.enabled'), dataIndex: 'enabled', width: 90,
      render: (v: boolean, r, index) => (
        <Switch size="small" checked={v} disabled={!canEdit || save.isPending} onChange={(on) => toggle(index, on)} data-testid={`backup-enabled-${r.id}`} />
      ),
    },
    { key: 'remark', title: t('backup.col.remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
    {
      key: 'last', title: t('backup.col.last'), dataIndex: 'last',
      render: (last: BackupRuleView['last'], r) =>
        last ? (
          <Space orientation="vertical" size={0} data-testid={`backup-last-${r.id}`}>
            <Typography.Text type="secondary">{formatDateTime(last.at)}</Typography.Text>
            {last.ok ? (
              <Tag color="green">{t('backup.ok')}</Tag>
            ) : (
              <span>
                <Tag color="red">{t('backup.failed')}</Tag>
                <Typography.Text type="danger">{last.error}</Typography.Text>
              </span>
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary" data-testid={`backup-last-${r.id}`}>{t('backup.never')}</Typography.Text>
        ),
    },
    {
      key: 'actions', title: t('backup.col.actions'), width: 130,
      render: (_v, r, index) =>
        canEdit && (
          <Space>
            <Typography.Link onClick={() => { setModalErrors({}); setEditing({ index, draft: toInput(r), view: r }); }} data-testid={`backup-edit-${r.id}`}>
              {t('backup.edit')}
            </Typography.Link>
            <Typography.Link type="danger" onClick={() => remove(index)} data-testid={`backup-delete-${r.id}`}>
              {t('backup.delete')}
            </Typography.Link>
          </Space>
        ),
    },
  ];
  const label = (id: number) => {
    const r = views.find((v) => v.id === id);
    return r ? `${t(`backup.type.${r.type}`)} ${host(r)}${r.bucket ? ` (${r.bucket})` : ''}` : `#${id}`;
  };
  const editErrors = editing ? splitErrors(modalErrors, editing.index) : { fields: {}, general: undefined };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="system-log-page">
      <Alert type="info" showIcon title={t('backup.hint', { dir: backupSubdirectory })} data-testid="backup-hint" />
      <Space wrap>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => { setModalErrors({}); setEditing({ index: views.length, draft: newRuleDraft(), view: undefined }); }} data-testid="backup-add">
            {t('backup.add')}
          </Button>
        )}
        {canEdit && (
          <Button icon={<CloudUploadOutlined />} disabled={views.length === 0} loading={run.isPending} onClick={() => run.mutate()} data-testid="backup-run">
            {t('backup.run')}
          </Button>
        )}
      </Space>
      {listError && <Alert type="error" showIcon closable title={listError} onClose={() => setListError(undefined)} data-testid="backup-list-error" />}
      <Table<BackupRuleView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={views}
        loading={rules.isFetching}
        pagination={false}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <EmptyHint text={t('empty.sys.backup')} next={addStep(t, canEdit, t('backup.add'))} testId="backup-empty" /> }}
        onRow={(r) => testId(`backup-row-${r.id}`)}
        data-testid="backup-table"
      />
      {results && (
        <Card size="small" title={t('backup.results')} extra={<Button size="small" type="text" onClick={() => setResults(null)} data-testid="backup-results-close">{t('backup.close')}</Button>} data-testid="backup-run-results">
          {results.length === 0 ? (
            <Typography.Text type="secondary">{t('backup.no_results')}</Typography.Text>
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {results.map((r) => (
                <Space key={r.id} wrap data-testid={`backup-run-result-${r.id}`}>
                  <Tag color={r.ok ? 'green' : 'red'}>{t(r.ok ? 'backup.ok' : 'backup.failed')}</Tag>
                  <span>{label(r.id)}</span>
                  <Typography.Text type={r.ok ? 'secondary' : 'danger'}>{r.ok ? r.file : r.error}</Typography.Text>
                </Space>
              ))}
            </Space>
          )}
        </Card>
      )}
      {editing && (
        <BackupRuleModal
          key={editing.index}
          initial={editing.draft}
          view={editing.view}
          errors={editErrors.fields}
          general={editErrors.general}
          saving={save.isPending}
          onErrors={(fields) => setModalErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [`rules.${editing.index}.${k}`, v])))}
          onSave={saveDraft}
          onClose={() => setEditing(null)}
        />
      )}
    </Space>
  );
}
