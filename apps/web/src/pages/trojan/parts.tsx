import { App, Checkbox, Flex, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  isFlaggedRisk, webshellReasonText, type TrojanHandled, type TrojanResult, type TrojanResultAction, type WebshellReason, type WebshellRisk,
} from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { formatDateTime, formatSize } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { PathText } from '../tamper/StateTag.tsx';
import { pageSizes } from '../firewall/api.ts';
import type { ResultsQuery } from './api.ts';

const riskColours: Record<WebshellRisk, string> = { high: 'red', medium: 'orange', low: 'gold', none: 'default' };
const handledColours: Record<TrojanHandled, string> = { pending: 'processing', recorded: 'default', trusted: 'green', isolated: 'purple', deleted: 'default', failed: 'error' };

export function RiskTag({ risk, testId: id }: { risk: WebshellRisk; testId?: string }) {
  const { t } = useTranslation();
  return <Tag color={riskColours[risk]} data-testid={id}>{t(`trj.risk_level.${risk}`)}</Tag>;
}

/** The reason of a finding in the page's language (the rule's name filled in). */
export function useReasonText(): (reason: WebshellReason, rule?: string) => string {
  const lang = useLanguage();
  return (reason, rule) => webshellReasonText(reason, lang, rule);
}

/** Files an administrator can still act on: a web shell not already isolated, deleted or trusted. */
export const canHandle = (r: TrojanResult) => isFlaggedRisk(r.risk) && (r.handled === 'pending' || r.handled === 'recorded' || r.handled === 'failed');

interface ResultsTableProps {
  prefix: string;
  rows: TrojanResult[];
  total: number;
  loading: boolean;
  query: ResultsQuery;
  setQuery: (update: (q: ResultsQuery) => ResultsQuery) => void;
  emptyText: string;
  /** The actions this account may take (delete needs `delete`, the others `edit`). */
  allowed: (action: TrojanResultAction) => boolean;
  onHandle: (ids: number[], action: TrojanResultAction) => Promise<unknown>;
  busy: boolean;
}

/** A scan's reported files with the handling actions (trust / isolate / delete / record); deleting and trusting ask first. */
export function ResultsTable({ prefix, rows, total, loading, query, setQuery, emptyText, allowed, onHandle, busy }: ResultsTableProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const reasonText = useReasonText();
  // Deleting cannot be undone, and trusting silences these bytes everywhere for good: both ask first.
  const act = (r: TrojanResult, action: TrojanResultAction) => {
    if (action !== 'delete' && action !== 'trust') {
      void onHandle([r.id], action).catch(() => undefined);
      return;
    }
    modal.confirm({
      title: t(`trj.${action}_file_title`),
      content: action === 'delete' ? t('trj.delete_file_confirm', { count: 1 }) : t('trj.trust_file_confirm', { path: r.path }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId(`${prefix}-${action}-confirm`) },
      onOk: () => onHandle([r.id], action).catch(() => undefined),
    });
  };
  const actions = (['trust', 'isolate', 'delete', 'record'] as const).filter(allowed);

  const columns: TableColumnsType<TrojanResult> = [
    { key: 'name', title: t('trj.file_name'), dataIndex: 'name', width: 160, render: (v: string) => <Typography.Text strong style={{ wordBreak: 'break-all' }}>{v}</Typography.Text> },
    {
      key: 'description', title: t('trj.description'), width: 280,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text data-testid={`${prefix}-reason-${r.id}`}>{reasonText(r.reason, r.rule)}</Typography.Text>
          {r.findings.length > 1 && (
            <Tooltip title={r.findings.map((f) => reasonText(f.reason, f.rule)).join('; ')}>
              <Typography.Text type="secondary">{`+${r.findings.length - 1}`}</Typography.Text>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { key: 'risk', title: t('trj.risk'), dataIndex: 'risk', width: 80, render: (v: WebshellRisk, r) => <RiskTag risk={v} testId={`${prefix}-risk-${r.id}`} /> },
    { key: 'path', title: t('trj.path'), dataIndex: 'path', width: 280, render: (v: string) => <PathText path={v} /> },
    { key: 'size', title: t('trj.size'), dataIndex: 'size', width: 90, render: (v: number) => formatSize(v) },
    { key: 'mtime', title: t('trj.mtime'), dataIndex: 'mtimeMs', width: 170, render: (v: number) => formatDateTime(v) },
    {
      key: 'handled', title: t('trj.handled'), dataIndex: 'handled', width: 90,
      render: (v: TrojanHandled, r) => <Tag color={handledColours[v]} data-testid={`${prefix}-handled-${r.id}`}>{t(`trj.handled_state.${v}`)}</Tag>,
    },
  ];
  if (actions.length > 0) {
    columns.push({
      key: 'actions', title: t('trj.actions'), width: 200, fixed: 'end',
      render: (_v, r) => canHandle(r) && (
        <Space size={8} wrap>
          {actions.map((action) => (
            <Tooltip key={action} title={action === 'trust' ? t('trj.action_trust_hint') : undefined}>
              <Typography.Link
                type={action === 'delete' ? 'danger' : undefined}
                disabled={busy}
                onClick={() => act(r, action)}
                data-testid={`${prefix}-${action}-${r.id}`}
              >
                {t(`trj.action.${action}`)}
              </Typography.Link>
            </Tooltip>
          ))}
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={8}>
      <Checkbox checked={query.all} onChange={(e) => setQuery((q) => ({ ...q, all: e.target.checked, page: 1 }))} data-testid={`${prefix}-show-all`}>
        {t('trj.show_all')}
      </Checkbox>
      <Table<TrojanResult>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={loading}
        scroll={{ x: 1300 }}
        locale={{ emptyText }}
        onRow={(r) => testId(`${prefix}-row-${r.id}`)}
        pagination={{
          current: query.page, pageSize: query.size, total, showSizeChanger: true, pageSizeOptions: pageSizes,
          showTotal: (count) => t('fw.total', { count }),
          onChange: (page, size) => setQuery((q) => ({ ...q, page: size === q.size ? page : 1, size })),
        }}
        data-testid={`${prefix}-table`}
      />
    </Flex>
  );
}
