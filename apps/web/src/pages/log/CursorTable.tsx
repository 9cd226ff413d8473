import { Button, Flex, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { testId } from '../../utils/testId.ts';
import type { useCursorList } from './useCursorList.ts';

/**
 * A newest-first list read page by page: the table, rows that open their detail, and under it
 * "load more" while there is more, "no more data" once there is not. Test ids start with `prefix`.
 */
export function CursorTable<R extends { id: number }>({ prefix, columns, list, scrollX, onOpen }: {
  prefix: string;
  columns: TableColumnsType<R>;
  list: ReturnType<typeof useCursorList<R>>;
  scrollX: number;
  onOpen: (row: R) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Table<R>
        style={{ marginTop: 8 }}
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        pagination={false}
        scroll={{ x: scrollX }}
        onRow={(row) => ({ onClick: () => onOpen(row), style: { cursor: 'pointer' }, ...testId(`${prefix}-row-${row.id}`) })}
        data-testid={`${prefix}-table`}
      />
      {(list.hasMore || list.exhausted) && (
        <Flex justify="center" style={{ marginTop: 16 }}>
          {list.hasMore ? (
            <Button onClick={list.loadMore} loading={list.loadingMore} data-testid={`${prefix}-load-more`}>
              {t('log.load_more')}
            </Button>
          ) : (
            <Typography.Text type="secondary" data-testid={`${prefix}-no-more`}>
              {t('log.no_more')}
            </Typography.Text>
          )}
        </Flex>
      )}
    </>
  );
}
