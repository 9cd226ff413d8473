import { ScanOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, Space, Typography } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrojanResultAction } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize } from '../firewall/api.ts';
import { auditTrojanKey, cancelAuditScan, fetchAuditResults, fetchAuditScan, handleAuditResults, isRunning, scanPollMs, startAuditScan, type ResultsQuery } from './api.ts';
import { ResultsTable } from './parts.tsx';
import { ScanProgress } from './ScanProgress.tsx';
import { checkPaths } from './trojanForm.ts';

/** The audit's `trojan` tab: a one-off scan of typed paths, its progress, and its results with the same handling. */
export function AuditTrojanPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('audit', 'edit');
  const canDelete = useCan('audit', 'delete');
  const [paths, setPaths] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [results, setResults] = useState<Omit<ResultsQuery, 'scan'>>({ all: false, page: 1, size: defaultPageSize });
  const latest = useQuery({ queryKey: [...auditTrojanKey, 'scan'], queryFn: fetchAuditScan, refetchInterval: (q) => (isRunning(q.state.data) ? scanPollMs : false) });
  const scan = latest.data ?? null;
  const running = isRunning(scan);
  const found = useQuery({
    queryKey: [...auditTrojanKey, 'results', scan?.id, scan?.flagged, scan?.state, results],
    queryFn: () => fetchAuditResults({ scan: scan!.id, ...results }),
    enabled: scan !== null,
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: auditTrojanKey });
  const start = useMutation({ mutationFn: startAuditScan, onSettled: refresh });
  const cancel = useMutation({ mutationFn: cancelAuditScan, onSettled: refresh });
  const handle = useMutation({ mutationFn: ({ ids, action }: { ids: number[]; action: TrojanResultAction }) => handleAuditResults(ids, action), onSettled: refresh });

  const onStart = () => {
    const checked = checkPaths(paths, lang, (line, message) => t('trj.whitelist_line', { line, message }));
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    setResults((q) => ({ ...q, page: 1 }));
    start.mutate(checked.paths);
  };
  const onStop = () =>
    scan && modal.confirm({
      title: t('trj.scan_stop_title'),
      content: t('trj.scan_stop_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('audit-trojan-stop-confirm') },
      onOk: () => cancel.mutateAsync(scan.id).catch(() => undefined),
    });

  return (
    <Flex vertical gap={16} data-testid="audit-trojan-page">
      <Typography.Paragraph type="secondary">{t('trj.audit_intro')}</Typography.Paragraph>
      <Form layout="vertical" disabled={!canEdit}>
        <Form.Item
          label={t('trj.audit_paths')}
          extra={t('trj.audit_paths_hint')}
          validateStatus={error ? 'error' : undefined}
          help={error && <span data-testid="audit-trojan-error">{error}</span>}
        >
          <Input.TextArea rows={3} value={paths} onChange={(e) => setPaths(e.target.value)} placeholder={t('trj.audit_paths_placeholder')} spellCheck={false} style={{ fontFamily: 'monospace' }} data-testid="audit-trojan-paths" />
        </Form.Item>
        {canEdit && (
          <Space>
            {!running && <Button type="primary" icon={<ScanOutlined />} loading={start.isPending} onClick={onStart} data-testid="audit-trojan-start">{scan ? t('trj.audit_again') : t('trj.audit_start')}</Button>}
            {running && <Button danger icon={<StopOutlined />} onClick={onStop} data-testid="audit-trojan-stop">{t('trj.scan_stop')}</Button>}
          </Space>
        )}
      </Form>
      {scan ? <ScanProgress scan={scan} prefix="audit-trojan" /> : <Typography.Text type="secondary" data-testid="audit-trojan-none">{t('trj.no_audit')}</Typography.Text>}
      {scan && (
        <ResultsTable
          prefix="audit-trojan-result"
          rows={found.data?.list ?? []}
          total={found.data?.total ?? 0}
          loading={found.isFetching && !running}
          query={{ scan: scan.id, ...results }}
          setQuery={(update) => setResults((q) => {
            const { scan: _scan, ...next } = update({ scan: scan.id, ...q });
            return next;
          })}
          emptyText={t('trj.no_audit_results')}
          allowed={(action) => (action === 'delete' ? canDelete : canEdit)}
          onHandle={(ids, action) => handle.mutateAsync({ ids, action })}
          busy={handle.isPending}
        />
      )}
    </Flex>
  );
}
