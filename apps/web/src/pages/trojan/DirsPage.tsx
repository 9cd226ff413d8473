import { DeleteOutlined, PlusOutlined, ScanOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Checkbox, Descriptions, Empty, Flex, Form, Input, Modal, Segmented, Space, Switch, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMessageKey, translate, trojanPathSchema, type MessageKey, type TrojanDir, type TrojanDirInput, type TrojanResultAction, type TrojanStatus } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { PathText } from '../tamper/StateTag.tsx';
import {
  addDirs, cancelScan, deleteDirs, discoverDirs, fetchDirs, fetchLatestScan, fetchResults, fetchTrojanStatus, handleResults, isRunning, scanPollMs,
  setDirsEnabled, startScan, trojanKey, type ResultsQuery,
} from './api.ts';
import { ResultsTable } from './parts.tsx';
import { ScanProgress } from './ScanProgress.tsx';

const dirStateColours: Record<TrojanDir['state'], string> = { watching: 'success', not_watched: 'warning', unwatchable: 'warning', missing: 'error', off: 'default' };
const watchColours: Record<TrojanStatus['watch'], string> = { watching: 'success', off: 'default', unavailable: 'error' };

/** The module's status line: the watch (with why when unavailable), the rule set, isolated files and what was found lately. */
function StatusLine({ status }: { status: TrojanStatus }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8}>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3, xl: 5 }} data-testid="trojan-status">
        <Descriptions.Item label={t('trj.watch')}>
          <Tag color={watchColours[status.watch]} data-testid="trojan-watch-state" data-state={status.watch}>{t(`trj.watch_state.${status.watch}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('trj.watched_dirs')}>{status.watchedDirs}</Descriptions.Item>
        <Descriptions.Item label={t('trj.rule_set')}>
          <Tooltip title={t('trj.custom_counts', { rules: status.customRules, hashes: status.customHashes })}>
            <Typography.Text code data-testid="trojan-rule-set">{status.ruleSetVersion || '-'}</Typography.Text>
          </Tooltip>
        </Descriptions.Item>
        <Descriptions.Item label={t('trj.isolated_count')}><span data-testid="trojan-isolated-count">{status.isolated}</span></Descriptions.Item>
        <Descriptions.Item label={t('trj.found_24h')}><span data-testid="trojan-found-24h">{status.found24h}</span></Descriptions.Item>
      </Descriptions>
      {status.watch === 'unavailable' && <Alert type="error" showIcon title={status.watchError || t('trj.watch_state.unavailable')} data-testid="trojan-watch-error" />}
      {status.watch === 'off' && <Alert type="info" showIcon title={t('trj.watch_off_hint')} data-testid="trojan-watch-off" />}
    </Flex>
  );
}

/** Adding directories: a typed absolute path, and the site roots found on this server to tick. */
function AddDirModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [path, setPath] = useState('');
  const [remark, setRemark] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const sites = useQuery({ queryKey: [...trojanKey, 'discover'], queryFn: discoverDirs });
  const save = useMutation({ mutationFn: addDirs, onSuccess: onDone });
  const roots = sites.data?.list ?? [];

  const onOk = () => {
    const dirs: TrojanDirInput[] = [];
    const typed = path.trim();
    if (typed) {
      const checked = trojanPathSchema.safeParse(typed);
      if (!checked.success) {
        setError(translate(lang, isMessageKey(checked.error.issues[0]?.message ?? '') ? (checked.error.issues[0]!.message as MessageKey) : 'trojan_path_invalid'));
        return;
      }
      dirs.push({ path: typed, remark: remark.trim(), site: '' });
    }
    for (const root of roots) if (picked.includes(root.path)) dirs.push({ path: root.path, remark: remark.trim(), site: root.site });
    if (dirs.length === 0) {
      setError(translate(lang, 'trojan_path_required'));
      return;
    }
    setError(undefined);
    save.mutate(dirs);
  };

  return (
    <Modal
      open
      title={t('trj.add_dir_title')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={onOk}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={testId('trojan-dir-save')}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Typography.Paragraph type="secondary">{t('trj.add_hint')}</Typography.Paragraph>
        <Form.Item label={t('trj.path')} validateStatus={error ? 'error' : undefined} help={error && <span data-testid="trojan-dir-error">{error}</span>}>
          <Input value={path} onChange={(e) => setPath(e.target.value)} placeholder={t('trj.path_placeholder')} data-testid="trojan-dir-path" />
        </Form.Item>
        <Form.Item label={t('trj.remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="trojan-dir-remark" />
        </Form.Item>
        <Form.Item label={t('trj.discovered')}>
          {roots.length === 0 ? (
            <Typography.Text type="secondary" data-testid="trojan-discovered-none">{t('trj.discovered_none')}</Typography.Text>
          ) : (
            <Checkbox.Group value={picked} onChange={(v) => setPicked(v.map(String))} data-testid="trojan-discovered">
              <Flex vertical gap={4}>
                {roots.map((root) => (
                  <Checkbox key={root.path} value={root.path} disabled={root.protected} data-testid={`trojan-discovered-${root.path}`}>
                    <Space size={6}>
                      <Typography.Text strong>{root.site}</Typography.Text>
                      <PathText path={root.path} />
                      {root.protected && <Tag>{t('trj.already_protected')}</Tag>}
                    </Space>
                  </Checkbox>
                ))}
              </Flex>
            </Checkbox.Group>
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The `dirs` tab: status line, protected directories, a full scan with live progress, and the results with their handling. */
export function DirsPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('trojan', 'add');
  const canEdit = useCan('trojan', 'edit');
  const canDelete = useCan('trojan', 'delete');
  const canEnable = useCan('trojan', 'enable');
  const canDisable = useCan('trojan', 'disable');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const [source, setSource] = useState<'scan' | 'watch'>('scan');
  const [results, setResults] = useState<Omit<ResultsQuery, 'scan'>>({ all: false, page: 1, size: defaultPageSize });

  const status = useQuery({ queryKey: [...trojanKey, 'status'], queryFn: fetchTrojanStatus });
  const list = useQuery({ queryKey: [...trojanKey, 'dirs', query], queryFn: () => fetchDirs(query), placeholderData: keepPreviousData });
  const latest = useQuery({ queryKey: [...trojanKey, 'latest'], queryFn: fetchLatestScan, refetchInterval: (q) => (isRunning(q.state.data) ? scanPollMs : false) });
  const scan = latest.data ?? null;
  const running = isRunning(scan);
  const resultsQuery: ResultsQuery | null = source === 'watch' ? { scan: 'watch', ...results } : scan ? { scan: scan.id, ...results } : null;
  const found = useQuery({
    queryKey: [...trojanKey, 'results', resultsQuery, scan?.flagged, scan?.state],
    queryFn: () => fetchResults(resultsQuery!),
    enabled: resultsQuery !== null,
    placeholderData: keepPreviousData,
  });
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trojanKey });

  // A scan that ends changes the counts of the status line.
  const seen = useRef(scan?.state);
  useEffect(() => {
    if (seen.current !== undefined && seen.current !== scan?.state) void queryClient.invalidateQueries({ queryKey: [...trojanKey, 'status'] });
    seen.current = scan?.state;
  }, [scan?.state, queryClient]);

  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: () => setSelected([]), onSettled: refresh });
  const start = useMutation({ mutationFn: startScan, onSuccess: () => setSource('scan'), onSettled: refresh });
  const handle = useMutation({ mutationFn: ({ ids, action }: { ids: number[]; action: TrojanResultAction }) => handleResults(ids, action), onSettled: refresh });

  const confirmDelete = (ids: number[]) =>
    modal.confirm({
      title: t('trj.delete_dir_title'),
      content: t('trj.delete_dir_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('trojan-dir-delete-confirm') },
      onOk: () => change.mutateAsync(() => deleteDirs(ids)).catch(() => undefined),
    });
  const confirmStop = () =>
    scan && modal.confirm({
      title: t('trj.scan_stop_title'),
      content: t('trj.scan_stop_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('trojan-scan-stop-confirm') },
      onOk: () => change.mutateAsync(() => cancelScan(scan.id)).catch(() => undefined),
    });

  const columns: TableColumnsType<TrojanDir> = [
    { key: 'path', title: t('trj.path'), dataIndex: 'path', width: 280, render: (v: string) => <PathText path={v} /> },
    { key: 'site', title: t('trj.site'), dataIndex: 'site', width: 160, render: (v: string) => v || '-' },
    {
      key: 'state', title: t('trj.state'), dataIndex: 'state', width: 110,
      render: (v: TrojanDir['state'], r) => (
        <Tooltip title={t(`trj.dir_state_hint.${v}`)}>
          <Tag color={dirStateColours[v]} data-testid={`trojan-dir-state-${r.id}`}>{t(`trj.dir_state.${v}`)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'remark', title: t('trj.remark'), dataIndex: 'remark', width: 160, ellipsis: { showTitle: true }, render: (v: string) => v || '-' },
    {
      key: 'enabled', title: t('trj.enabled'), dataIndex: 'enabled', width: 84,
      render: (v: boolean, r) => (
        <Switch size="small" checked={v} disabled={v ? !canDisable : !canEnable} loading={change.isPending} onChange={(on) => change.mutate(() => setDirsEnabled([r.id], on))} data-testid={`trojan-dir-switch-${r.id}`} />
      ),
    },
  ];
  if (canDelete) {
    columns.push({
      key: 'actions', title: t('trj.actions'), width: 80, fixed: 'end',
      render: (_v, r) => <Typography.Link type="danger" onClick={() => confirmDelete([r.id])} data-testid={`trojan-dir-delete-${r.id}`}>{t('trj.delete')}</Typography.Link>,
    });
  }
  const dirsEmpty = !list.isFetching && (list.data?.total ?? 0) === 0 && query.keyword === '';

  return (
    <Flex vertical gap={16} data-testid="trojan-dirs-page">
      {status.data && <StatusLine status={status.data} />}
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="trojan-dir-add">{t('trj.add_dir')}</Button>}
          {canEdit && !running && (
            <Button icon={<ScanOutlined />} loading={start.isPending} disabled={dirsEmpty} onClick={() => start.mutate()} data-testid="trojan-scan-start">{t('trj.scan_now')}</Button>
          )}
          {canEdit && running && <Button danger icon={<StopOutlined />} onClick={confirmStop} data-testid="trojan-scan-stop">{t('trj.scan_stop')}</Button>}
          {canDelete && <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)} data-testid="trojan-dir-delete">{t('trj.delete')}</Button>}
          <SelectedCount prefix="trojan-dir" count={selected.length} />
        </Space>
        <KeywordSearch prefix="trojan-dir" placeholder={t('trj.search_placeholder')} onSearch={(keyword) => {
          setSelected([]);
          setQuery((q) => ({ ...q, keyword, page: 1 }));
        }} />
      </Flex>
      {dirsEmpty ? (
        <Card size="small"><Empty description={<span data-testid="trojan-no-dirs">{t('trj.no_dirs')}</span>} /></Card>
      ) : (
        <PagedSelectableTable<TrojanDir>
          prefix="trojan-dir"
          empty={{ text: t('trj.no_dirs') }}
          columns={columns}
          rows={list.data?.list ?? []}
          total={list.data?.total ?? 0}
          loading={list.isFetching}
          scroll={{ x: 900 }}
          selectable={canDelete}
          selected={selected}
          setSelected={setSelected}
          query={query}
          setQuery={setQuery}
        />
      )}
      {scan ? <ScanProgress scan={scan} prefix="trojan" /> : !dirsEmpty && <Typography.Text type="secondary" data-testid="trojan-no-scan">{t('trj.no_scan')}</Typography.Text>}
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={5} style={{ margin: 0 }}>{t('trj.results')}</Typography.Title>
        <Segmented
          value={source}
          onChange={(v) => {
            setSource(v as 'scan' | 'watch');
            setResults((q) => ({ ...q, page: 1 }));
          }}
          options={[{ value: 'scan', label: t('trj.results_scan') }, { value: 'watch', label: t('trj.results_watch') }]}
          data-testid="trojan-results-source"
        />
      </Flex>
      <ResultsTable
        prefix="trojan-result"
        rows={resultsQuery ? (found.data?.list ?? []) : []}
        total={resultsQuery ? (found.data?.total ?? 0) : 0}
        loading={found.isFetching && !running}
        query={{ scan: resultsQuery?.scan ?? 'watch', ...results }}
        setQuery={(update) => setResults((q) => {
          const { scan: _scan, ...next } = update({ scan: 'watch', ...q });
          return next;
        })}
        emptyText={source === 'watch' ? t('trj.no_results_watch') : scan ? t('trj.no_results_scan') : t('trj.no_scan')}
        allowed={(action) => (action === 'delete' ? canDelete : canEdit)}
        onHandle={(ids, action) => handle.mutateAsync({ ids, action })}
        busy={handle.isPending}
      />
      {adding && <AddDirModal onClose={() => setAdding(false)} onDone={() => {
        setAdding(false);
        refresh();
      }} />}
    </Flex>
  );
}
