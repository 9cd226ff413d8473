import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import { App, Button, Modal, Space, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoticeListResult } from '@rampart/contracts';
import { deleteNotices, fetchNoticeInfo, fetchNotices, logPageSize, markNoticesRead, type NoticeIds } from '../../api/endpoints.ts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { Markup } from '../../components/Markup.tsx';
import { unreadKey } from '../../session/unread.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';

type NoticeRow = NonNullable<NoticeListResult['list']>[number];

export const noticeListKey = ['log', 'notice', 'list'] as const;

/** One notice's content; opening it marks it read on the server, so the list and the badge refresh. */
function NoticeModal({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: ['log', 'notice', 'info', id], queryFn: () => fetchNoticeInfo(id!), enabled: id !== null, gcTime: 0 });
  const loaded = info.isSuccess;
  useEffect(() => {
    if (!loaded) return;
    void queryClient.invalidateQueries({ queryKey: noticeListKey });
    void queryClient.invalidateQueries({ queryKey: unreadKey });
  }, [loaded, queryClient]);
  return (
    <Modal open={id !== null} title={info.data?.title ?? t('log.notice.title')} onCancel={onClose} footer={null} destroyOnHidden>
      {info.data ? (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="notice-info">
          <Typography.Text type="secondary">{formatDateTime(info.data.add_time)}</Typography.Text>
          <Typography.Paragraph data-testid="notice-content" style={{ whiteSpace: 'pre-wrap' }}>
            <Markup html={info.data.content} />
          </Typography.Paragraph>
        </Space>
      ) : (
        info.isFetching && <Spin />
      )}
    </Modal>
  );
}

/** Notices: a page of 20, selection, read and delete actions, each refreshing the header badge. */
export function NoticePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canDelete = useCan('log', 'delete');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const list = useQuery({ queryKey: [...noticeListKey, page], queryFn: () => fetchNotices(page) });
  const rows: NoticeRow[] = list.data?.list ?? [];
  const count = list.data?.count ?? 0;

  const refresh = () => {
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: noticeListKey });
    void queryClient.invalidateQueries({ queryKey: unreadKey });
  };
  const read = useMutation({ mutationFn: (ids: NoticeIds) => markNoticesRead(ids), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: (ids: NoticeIds) => deleteNotices(ids),
    onSuccess: (_d, ids) => {
      // Deleting everything on a later page leaves nothing there: go back to the first.
      if (ids === 'all' || (ids.length === rows.length && page > 1)) setPage(1);
      refresh();
    },
  });

  const confirmDelete = (ids: NoticeIds) =>
    modal.confirm({
      title: t('log.notice.delete_title'),
      content: ids === 'all' ? t('log.notice.delete_all_confirm', { count }) : t('log.notice.delete_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('notice-delete-confirm') },
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });

  const columns: TableColumnsType<NoticeRow> = [
    {
      key: 'title', title: t('log.notice.col_title'), dataIndex: 'title',
      render: (v: string, row) => (
        <Typography.Link strong={row.readed === 0} onClick={() => setOpen(row.id)} data-testid={`notice-title-${row.id}`}>
          {v}
        </Typography.Link>
      ),
    },
    { key: 'time', title: t('log.notice.col_time'), dataIndex: 'add_time', width: 190, render: (v: number) => formatDateTime(v) },
    {
      key: 'state', title: t('log.notice.col_state'), dataIndex: 'readed', width: 110,
      render: (v: number, row) => (
        <Tag color={v ? 'default' : 'blue'} data-testid={`notice-state-${row.id}`}>
          {t(v ? 'log.notice.read' : 'log.notice.unread')}
        </Tag>
      ),
    },
  ];

  return (
    <div data-testid="log-notice-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <Button icon={<CheckOutlined />} disabled={selected.length === 0} loading={read.isPending && read.variables !== 'all'} onClick={() => read.mutate(selected)} data-testid="notice-mark-read">
          {t('log.notice.mark_read')}
        </Button>
        <Button disabled={count === 0} loading={read.isPending && read.variables === 'all'} onClick={() => read.mutate('all')} data-testid="notice-mark-all">
          {t('log.notice.mark_all')}
        </Button>
        {canDelete && (
          <>
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)} data-testid="notice-delete">
              {t('log.notice.delete')}
            </Button>
            <Button danger disabled={count === 0} onClick={() => confirmDelete('all')} data-testid="notice-delete-all">
              {t('log.notice.delete_all')}
            </Button>
          </>
        )}
        {selected.length > 0 && (
          <Typography.Text type="secondary" data-testid="notice-selected">
            {t('log.notice.selected', { count: selected.length })}
          </Typography.Text>
        )}
      </Space>
      <Table<NoticeRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        locale={{ emptyText: <EmptyHint text={t('empty.log.notice')} next={t('empty.log.notice_next')} testId="notice-empty" /> }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (row) => testId(`notice-select-${row.id}`),
        }}
        onRow={(row) => testId(`notice-row-${row.id}`)}
        pagination={{
          current: page,
          pageSize: logPageSize,
          total: count,
          showSizeChanger: false,
          onChange: (p) => {
            setPage(p);
            setSelected([]);
          },
        }}
        data-testid="notice-table"
      />
      <NoticeModal id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
