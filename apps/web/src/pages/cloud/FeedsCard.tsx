import { CloudDownloadOutlined, DeleteOutlined, LinkOutlined, SyncOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Input, InputNumber, Switch, Table, Tag, Tooltip, Typography, Upload, type TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMessageKey, translate, type CloudFeed } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { addUrlFeed, cloudKey, deleteFeeds, importBundle, setFeedsEnabled, updateFeed } from './api.ts';

const stateColor = { ok: 'green', failed: 'red', expired: 'orange' } as const;

/** The installed feeds: import a file, add a URL, switch, update now, delete. */
export function FeedsCard({ feeds }: { feeds: readonly CloudFeed[] }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('cloud', 'add');
  const canImport = useCan('cloud', 'import');
  const canEdit = useCan('cloud', 'edit');
  const canDelete = useCan('cloud', 'delete');
  const canEnable = useCan('cloud', 'enable');
  const canDisable = useCan('cloud', 'disable');
  const [url, setUrl] = useState('');
  const [every, setEvery] = useState<number | null>(60);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: cloudKey });
  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSettled: refresh });
  const addUrl = useMutation({ mutationFn: () => addUrlFeed(url.trim(), every ?? 0), onSuccess: () => setUrl(''), onSettled: refresh });

  const errorText = (feed: CloudFeed) =>
    feed.last_error && isMessageKey(feed.last_error) ? translate(lang, feed.last_error, { detail: feed.last_detail }) : (feed.last_error ?? '');
  const columns: TableColumnsType<CloudFeed> = [
    {
      title: t('cloud.name'), key: 'name',
      render: (_, feed) => (
        <Flex vertical>
          <Typography.Text strong>{feed.name}</Typography.Text>
          <Typography.Text type="secondary">{feed.url ? t('cloud.updated_from', { minutes: feed.interval_minutes, url: feed.url }) : t('cloud.imported_file')}</Typography.Text>
        </Flex>
      ),
    },
    { title: t('cloud.source'), dataIndex: 'source' },
    { title: t('cloud.licence'), dataIndex: 'licence' },
    { title: t('cloud.version'), dataIndex: 'version' },
    { title: t('cloud.date'), dataIndex: 'date', render: (date: string) => formatDateTime(Date.parse(date)) },
    { title: t('cloud.expires'), dataIndex: 'expires', render: (date: string) => formatDateTime(Date.parse(date)) },
    {
      title: t('cloud.entries'), key: 'entries',
      render: (_, feed) => (
        <Flex vertical>
          <span>{`${feed.entries_v4} / ${feed.entries_v6}`}</span>
          <Typography.Text type="secondary">{t('cloud.ranges', { v4: feed.ranges_v4, v6: feed.ranges_v6 })}</Typography.Text>
        </Flex>
      ),
    },
    { title: t('cloud.hits'), dataIndex: 'hits', render: (hits: number, feed) => <span data-testid={`cloud-hits-${feed.id}`}>{hits}</span> },
    { title: t('cloud.last_update'), dataIndex: 'last_update', render: (at: number) => formatDateTime(at) },
    {
      title: t('cloud.state'), key: 'state',
      render: (_, feed) => (
        <Tooltip title={errorText(feed) || undefined}>
          <Tag color={stateColor[feed.state]} data-testid={`cloud-state-${feed.id}`}>{t(`cloud.state_${feed.state}`)}</Tag>
        </Tooltip>
      ),
    },
    {
      title: t('cloud.enabled'), key: 'enabled',
      render: (_, feed) => (
        <Switch size="small" checked={feed.enabled} disabled={feed.enabled ? !canDisable : !canEnable} data-testid={`cloud-enable-${feed.id}`}
          onChange={(enabled) => change.mutate(() => setFeedsEnabled([feed.id], enabled))} />
      ),
    },
    {
      title: t('cloud.actions'), key: 'actions',
      render: (_, feed) => (
        <Flex gap={4}>
          {canEdit && feed.url && (
            <Button size="small" icon={<SyncOutlined />} onClick={() => change.mutate(() => updateFeed(feed.id))} data-testid={`cloud-update-${feed.id}`}>{t('cloud.update_now')}</Button>
          )}
          {canDelete && (
            <Button size="small" danger icon={<DeleteOutlined />} data-testid={`cloud-delete-${feed.id}`}
              onClick={() => modal.confirm({ title: t('cloud.delete_confirm', { name: feed.name }), okButtonProps: { danger: true, ...testId('cloud-delete-confirm') }, onOk: () => change.mutateAsync(() => deleteFeeds([feed.id])) })}>
              {t('cloud.delete')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];
  return (
    <Card size="small" title={t('cloud.feeds_title')} data-testid="cloud-feeds">
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        {canImport && (
          <Upload accept=".json,application/json" showUploadList={false} data-testid="cloud-import"
            beforeUpload={(file) => {
              void file.text().then((text) => change.mutate(() => importBundle(text)));
              return false;
            }}>
            <Button type="primary" icon={<UploadOutlined />} loading={change.isPending} data-testid="cloud-import-button">{t('cloud.import')}</Button>
          </Upload>
        )}
        {canAdd && (
          <>
            <Input style={{ width: 360 }} prefix={<LinkOutlined />} placeholder={t('cloud.url')} value={url} onChange={(e) => setUrl(e.target.value)} data-testid="cloud-url" />
            <InputNumber style={{ width: 200 }} min={5} max={10080} addonBefore={t('cloud.interval')} value={every} onChange={setEvery} data-testid="cloud-interval" />
            <Button icon={<CloudDownloadOutlined />} loading={addUrl.isPending} onClick={() => addUrl.mutate()} data-testid="cloud-add-url">{t('cloud.add_url')}</Button>
          </>
        )}
      </Flex>
      <Table<CloudFeed> rowKey="id" size="small" pagination={false} scroll={{ x: 'max-content' }} dataSource={[...feeds]} columns={columns}
        locale={{ emptyText: <EmptyHint text={t('cloud.empty_feeds')} next={t('cloud.empty_feeds_next')} testId="cloud-feeds-empty" /> }} data-testid="cloud-feeds-table" />
    </Card>
  );
}
