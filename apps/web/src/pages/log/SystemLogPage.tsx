import { DownloadOutlined } from '@ant-design/icons';
import { Badge, Button, Flex, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { eventLevels, eventModules, logPeriods, logSystemQuerySchema, type LogBase, type LogRow } from '@rampart/contracts';
import { fetchLogBase, fetchLogPage, type LogFilters } from '../../api/endpoints.ts';
import { issuesToErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime, formatSize } from '../../utils/format.ts';
import { DownloadModal } from './DownloadModal.tsx';
import { CursorTable, logEmpty } from './CursorTable.tsx';
import { LogDetailDrawer } from './LogDetailDrawer.tsx';
import { LogFilterBar } from './LogFilterBar.tsx';
import { levelColour, levelName, moduleName } from './names.ts';
import { useCursorList } from './useCursorList.ts';
import { useLogDownload } from './useLogDownload.ts';

export const logBaseKey = ['log', 'system', 'base'] as const;

/** Mode, keep days and size of the event store, as a hint above the list. */
function BaseHint({ base }: { base: LogBase }) {
  const { t, i18n } = useTranslation();
  const mode = i18n.exists(`logset.mode.${base.mode}`) ? t(`logset.mode.${base.mode}`) : base.mode;
  return (
    <Typography.Text type="secondary" data-testid="log-base-hint">
      {t('log.base_hint', { mode, days: base.keep_days, count: base.events, size: formatSize(base.bytes) })}
    </Typography.Text>
  );
}

/** The event log: filters, newest first, "load more", a detail drawer and the export. */
export function SystemLogPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const canExport = useCan('log', 'export');
  const [filters, setFilters] = useState<LogFilters>({ period: 'today' });
  const [detail, setDetail] = useState<LogRow | null>(null);
  const base = useQuery({ queryKey: logBaseKey, queryFn: fetchLogBase });
  const list = useCursorList(['log', 'system', 'list', filters], (before) => fetchLogPage(filters, before));
  const download = useLogDownload();

  const validate = (f: LogFilters) => {
    const parsed = logSystemQuerySchema.safeParse(Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)));
    return parsed.success ? {} : issuesToErrors(parsed.error.issues, lang);
  };

  const columns: TableColumnsType<LogRow> = [
    { key: 'time', title: t('log.col.time'), dataIndex: 'time', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'account', title: t('log.col.account'), dataIndex: 'account', width: 110, render: (v: string) => v || '-' },
    { key: 'module', title: t('log.col.module'), dataIndex: 'module', width: 130, render: (v: string) => moduleName(v, lang) },
    { key: 'source', title: t('log.col.source'), dataIndex: 'source', width: 110, render: (v: string) => v || '-' },
    { key: 'ip', title: t('log.col.ip'), dataIndex: 'ip', width: 140, render: (v: string) => v || '-' },
    {
      key: 'level', title: t('log.col.level'), dataIndex: 'level', width: 90,
      render: (v: string, row) => <Tag color={levelColour(v)} data-testid={`log-level-${row.id}`}>{levelName(v, lang)}</Tag>,
    },
    {
      key: 'content', title: t('log.col.content'), dataIndex: 'content',
      render: (v: string, row) => (
        <Space size={8}>
          <span>{v}</span>
          {row.repeats > 1 && (
            <Tooltip title={t('log.repeats', { count: row.repeats })}>
              <Badge count={row.repeats} overflowCount={99999} color="gold" data-testid={`log-repeats-${row.id}`} />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="log-system-page">
      <Flex justify="space-between" align="flex-start" wrap gap={8}>
        <LogFilterBar
          prefix="log"
          value={filters}
          onSearch={setFilters}
          validate={validate}
          modules={base.data?.modules ?? eventModules}
          levels={base.data?.levels ?? eventLevels}
          periods={base.data?.periods ?? logPeriods}
        />
        {canExport && (
          <Button
            icon={<DownloadOutlined />}
            onClick={() => download.start(filters)}
            disabled={download.state.phase !== 'idle'}
            data-testid="log-download"
          >
            {t('log.download.button')}
          </Button>
        )}
      </Flex>
      {base.data && <BaseHint base={base.data} />}
      <CursorTable<LogRow> prefix="log" columns={columns} list={list} scrollX={900} onOpen={setDetail} empty={logEmpty(t, 'event', filters)} />
      <LogDetailDrawer row={detail} onClose={() => setDetail(null)} />
      <DownloadModal state={download.state} onCancel={download.cancel} onClose={download.close} onAgain={download.again} />
    </div>
  );
}
