import { ClearOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Flex, Modal, Space, Spin, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logPeriods, photoListQuerySchema, type PhotoRecord } from '@rampart/contracts';
import { clearPhotos, fetchPhotoBase, fetchPhotoFile, fetchPhotos, type LogFilters, type PhotoFilters } from '../../api/endpoints.ts';
import { issuesToErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { saveBlob } from '../../utils/download.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { CursorTable, logEmpty } from './CursorTable.tsx';
import { monospace } from './LogDetailDrawer.tsx';
import { LogFilterBar } from './LogFilterBar.tsx';
import { useCursorList } from './useCursorList.ts';

const photoKey = ['log', 'photo'] as const;
/** Characters of POST data the list shows; the detail shows all of it. */
const previewChars = 80;

const preview = (text: string) => (text.length > previewChars ? `${text.slice(0, previewChars)}…` : text);
const fileName = (id: number) => `rampart-photo-${id}.txt`;

/** One snapshot: what the list carries, then the whole snapshot file (headers and full POST data). */
/** A snapshot's event kind in words (`website.attack` → Attack); a kind this build has no words for reads "Other". */
function useKindText(): (kind: string) => string {
  const { t, i18n } = useTranslation();
  return (kind) => {
    if (!kind) return '-';
    const key = `log.photo.kinds.${kind.replace(/\./g, '_')}`;
    return i18n.exists(key) ? t(key) : t('log.photo.kinds.other');
  };
}

function PhotoModal({ row, onClose }: { row: PhotoRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const kindText = useKindText();
  const id = row?.id ?? 0;
  const file = useQuery({
    queryKey: [...photoKey, 'file', id],
    queryFn: async () => {
      const { blob, filename } = await fetchPhotoFile(id);
      return { blob, filename: filename ?? fileName(id), text: await blob.text() };
    },
    enabled: row !== null,
    gcTime: 0,
  });
  return (
    <Modal
      open={row !== null}
      title={t('log.photo.detail_title')}
      onCancel={onClose}
      width={880}
      destroyOnHidden
      footer={
        <Button
          icon={<DownloadOutlined />}
          disabled={!file.data}
          onClick={() => file.data && saveBlob(file.data.blob, file.data.filename)}
          data-testid="photo-download"
        >
          {t('log.photo.download')}
        </Button>
      }
    >
      {row && (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="photo-detail">
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label={t('log.col.time')}>{formatDateTime(row.time)}</Descriptions.Item>
            <Descriptions.Item label={t('log.photo.col_site')}>{row.site || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('log.col.ip')}>{row.ip}</Descriptions.Item>
            <Descriptions.Item label={t('log.photo.col_method')}>{row.method}</Descriptions.Item>
            <Descriptions.Item label={t('log.photo.col_kind')} span={2}>{kindText(row.kind)}</Descriptions.Item>
            <Descriptions.Item label={t('log.photo.col_url')} span={2}>
              <span style={{ wordBreak: 'break-all' }} data-testid="photo-detail-url">{row.url}</span>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('log.photo.headers')}</Typography.Title>
          <pre style={monospace} data-testid="photo-detail-headers">{row.headers || '-'}</pre>
          <Typography.Title level={5}>{t('log.photo.post_data')}</Typography.Title>
          <pre style={monospace} data-testid="photo-detail-post">{row.post_data || '-'}</pre>
          <Typography.Title level={5}>{t('log.photo.full')}</Typography.Title>
          {file.data ? (
            <pre style={{ ...monospace, maxHeight: 360, overflow: 'auto' }} data-testid="photo-detail-full">{file.data.text}</pre>
          ) : file.isFetching ? (
            <Spin size="small" />
          ) : (
            <Typography.Text type="secondary">{t('log.photo.full_failed')}</Typography.Text>
          )}
        </Space>
      )}
    </Modal>
  );
}

/** Request snapshots: what website protection saw when it stopped a request. */
export function PhotoPage() {
  const { t } = useTranslation();
  const kindText = useKindText();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canClear = useCan('log_photo', 'delete');
  const [filters, setFilters] = useState<PhotoFilters>({ period: '7d' });
  const [detail, setDetail] = useState<PhotoRecord | null>(null);
  const base = useQuery({ queryKey: [...photoKey, 'base'], queryFn: fetchPhotoBase });
  const list = useCursorList([...photoKey, 'list', filters], (before) => fetchPhotos(filters, before));
  const clear = useMutation({ mutationFn: clearPhotos, onSuccess: () => void queryClient.invalidateQueries({ queryKey: photoKey }) });
  const count = base.data?.count ?? 0;

  const validate = (f: LogFilters) => {
    const { period, ip, keyword } = f;
    const parsed = photoListQuerySchema.safeParse(Object.fromEntries(Object.entries({ period, ip, keyword }).filter(([, v]) => v !== undefined)));
    return parsed.success ? {} : issuesToErrors(parsed.error.issues, lang);
  };

  const askClear = () =>
    modal.confirm({
      title: t('log.photo.clear'),
      content: t('log.photo.clear_confirm', { count }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('photo-clear-confirm') },
      onOk: () => clear.mutateAsync().catch(() => undefined),
    });

  const columns: TableColumnsType<PhotoRecord> = [
    { key: 'time', title: t('log.col.time'), dataIndex: 'time', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'site', title: t('log.photo.col_site'), dataIndex: 'site', width: 150, ellipsis: true, render: (v: string) => v || '-' },
    { key: 'ip', title: t('log.col.ip'), dataIndex: 'ip', width: 140 },
    { key: 'method', title: t('log.photo.col_method'), dataIndex: 'method', width: 90 },
    { key: 'url', title: t('log.photo.col_url'), dataIndex: 'url', ellipsis: true },
    { key: 'kind', title: t('log.photo.col_kind'), dataIndex: 'kind', width: 130, render: (v: string) => kindText(v) },
    {
      key: 'post', title: t('log.photo.col_post'), dataIndex: 'post_data', width: 220, ellipsis: true,
      render: (v: string) => <Typography.Text code={v !== ''}>{v ? preview(v) : '-'}</Typography.Text>,
    },
  ];

  return (
    <div data-testid="log-photo-page">
      <Flex justify="space-between" align="flex-start" wrap gap={8}>
        <LogFilterBar prefix="photo" value={filters} onSearch={({ period, ip, keyword }) => setFilters({ period, ip, keyword })} validate={validate} periods={logPeriods} />
        {canClear && (
          <Button danger icon={<ClearOutlined />} disabled={count === 0} loading={clear.isPending} onClick={askClear} data-testid="photo-clear">
            {t('log.photo.clear')}
          </Button>
        )}
      </Flex>
      {base.data && (
        <Typography.Text type="secondary" data-testid="photo-base-hint">
          {t('log.photo.base_hint', { count: base.data.count, days: base.data.keep_days })}
        </Typography.Text>
      )}
      <CursorTable<PhotoRecord> prefix="photo" columns={columns} list={list} scrollX={1000} onOpen={setDetail} empty={logEmpty(t, 'photo', filters)} />
      <PhotoModal row={detail} onClose={() => setDetail(null)} />
    </div>
  );
}
