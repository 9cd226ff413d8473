import { Card, Flex, Progress, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrojanScan } from '@rampart/contracts';
import { formatDateTime } from '../../utils/format.ts';
import { isRunning } from './api.ts';

const stateColours: Record<TrojanScan['state'], string> = { start: 'processing', scanning: 'processing', end: 'warning', complete: 'success' };

/** A scan's state and progress: files done / total, the current path, what was flagged. */
export function ScanProgress({ scan, prefix, extra }: { scan: TrojanScan; prefix: string; extra?: ReactNode }) {
  const { t } = useTranslation();
  const running = isRunning(scan);
  const percent = scan.total > 0 ? Math.min(100, Math.floor((100 * scan.done) / scan.total)) : running ? 0 : 100;
  return (
    <Card size="small" title={t('trj.last_scan')} extra={extra} data-testid={`${prefix}-scan`} data-state={scan.state} data-scan-id={scan.id}>
      <Flex vertical gap={6}>
        <Space wrap>
          <Tag color={stateColours[scan.state]} data-testid={`${prefix}-scan-state`}>{t(`trj.scan_state.${scan.state}`)}</Tag>
          <Typography.Text data-testid={`${prefix}-scan-progress`}>
            {scan.walkDone || !running ? t('trj.scan_progress', { done: scan.done, total: scan.total }) : t('trj.scan_counting', { done: scan.done })}
          </Typography.Text>
          <Typography.Text type={scan.flagged > 0 ? 'danger' : 'secondary'} data-testid={`${prefix}-scan-flagged`}>{t('trj.scan_flagged', { count: scan.flagged })}</Typography.Text>
          {scan.unscanned > 0 && <Typography.Text type="secondary">{t('trj.scan_unscanned', { count: scan.unscanned })}</Typography.Text>}
        </Space>
        <Progress percent={percent} status={running ? 'active' : scan.state === 'end' ? 'exception' : 'success'} showInfo={false} />
        {running && scan.currentPath && (
          <Typography.Text type="secondary" ellipsis style={{ fontFamily: 'monospace' }} data-testid={`${prefix}-scan-current`}>{t('trj.scan_current', { path: scan.currentPath })}</Typography.Text>
        )}
        <Typography.Text type="secondary">
          {t('trj.scan_started_at', { time: formatDateTime(scan.started) })}
          {scan.ended !== null && `, ${t('trj.scan_ended_at', { time: formatDateTime(scan.ended) })}`}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
