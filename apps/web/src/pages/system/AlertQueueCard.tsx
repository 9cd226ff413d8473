import { Button, Card, Descriptions, Empty, Space, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../utils/format.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { alertQueueKey, clearAlertQueue, fetchAlertQueue } from './alertsApi.ts';

/** The send queue of one: the waiting message, when it goes, when the last one went (GET/POST /system/alerts/queue). */
export function AlertQueueCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const queue = useQuery({ queryKey: alertQueueKey, queryFn: fetchAlertQueue, refetchInterval: 30_000 });
  const clear = useMutation({ mutationFn: clearAlertQueue, onSuccess: (data) => queryClient.setQueryData(alertQueueKey, data) });
  const data = queue.data;
  return (
    <Card
      title={t('sys_alerts.queue_title')}
      data-testid="alerts-queue"
      extra={
        <Space>
          <Button onClick={() => void queue.refetch()} loading={queue.isFetching} data-testid="alerts-queue-refresh">{t('sys_alerts.queue_refresh')}</Button>
          <Button danger disabled={!canEdit || !data?.waiting} loading={clear.isPending} onClick={() => clear.mutate()} data-testid="alerts-queue-clear">
            {t('sys_alerts.queue_clear')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('sys_alerts.queue_hint')}</Typography.Paragraph>
      {data && !data.enabled && <Typography.Paragraph type="warning" data-testid="alerts-queue-off">{t('sys_alerts.queue_off')}</Typography.Paragraph>}
      {data?.waiting ? (
        <Descriptions column={1} size="small" bordered data-testid="alerts-queue-waiting">
          <Descriptions.Item label={t('sys_alerts.queue_waiting')}>
            <Typography.Text strong>{data.waiting.title}</Typography.Text>
            <div style={{ whiteSpace: 'pre-wrap' }}>{data.waiting.content}</div>
          </Descriptions.Item>
          {data.next_at !== null && <Descriptions.Item label={t('sys_alerts.queue_next')}>{formatDateTime(data.next_at)}</Descriptions.Item>}
        </Descriptions>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sys_alerts.queue_empty')} data-testid="alerts-queue-empty" />
      )}
      {data && (
        <Typography.Paragraph style={{ marginTop: 12 }} data-testid="alerts-queue-last">
          {t('sys_alerts.queue_last')}: {data.last_sent_at === null ? t('sys_alerts.queue_never') : formatDateTime(data.last_sent_at)}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
