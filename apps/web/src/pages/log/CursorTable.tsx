import { Button, Flex, Table, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { logPeriods, type LogPeriod } from '@rampart/contracts';
import { EmptyHint, type EmptyTexts } from '../../components/EmptyHint.tsx';
import { testId } from '../../utils/testId.ts';
import type { useCursorList } from './useCursorList.ts';

/**
 * A newest-first list read page by page: the table, rows that open their detail, and under it
 * "load more" while there is more, "no more data" once there is not, `empty` (`<prefix>-empty`) while
 * there is nothing. Test ids start with `prefix`.
 */
export function CursorTable<R extends { id: number }>({ prefix, columns, list, scrollX, onOpen, empty }: {
  prefix: string;
  columns: TableColumnsType<R>;
  list: ReturnType<typeof useCursorList<R>>;
  scrollX: number;
  onOpen: (row: R) => void;
  empty: EmptyTexts;
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
        locale={{ emptyText: <EmptyHint {...empty} testId={`${prefix}-empty`} /> }}
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

/**
 * What an empty log list says: nothing matches the filters (period aside), nothing in a period
 * shorter than the longest, or nothing at all yet. `kind` names the records (`empty.log.<kind>_…`).
 */
export function logEmpty(t: TFunction, kind: 'event' | 'photo', { period, ...filters }: { period: LogPeriod; [filter: string]: unknown }): EmptyTexts {
  if (Object.values(filters).some((v) => v !== undefined && v !== '')) return { text: t(`empty.log.${kind}_filtered`), next: t('empty.log.filtered_next') };
  if (period !== logPeriods.at(-1)) return { text: t(`empty.log.${kind}_period`), next: t('empty.log.period_next') };
  return { text: t(`empty.log.${kind}_none`), next: t(`empty.log.${kind}_none_next`) };
}
