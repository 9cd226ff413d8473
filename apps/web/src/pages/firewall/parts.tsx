import { ExportOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table, Typography, type TableColumnsType, type TableProps } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { FirewallListKind } from '@rampart/contracts';
import { EmptyHint, searchEmpty, type EmptyTexts } from '../../components/EmptyHint.tsx';
import { saveBlob } from '../../utils/download.ts';
import { testId } from '../../utils/testId.ts';
import { exportFirewallList, pageSizes, type PageQuery } from './api.ts';

/** A keyword box with a search button: Enter or the button searches; clearing the box searches for everything. */
export function KeywordSearch({ prefix, placeholder, onSearch }: { prefix: string; placeholder: string; onSearch: (keyword: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <Space.Compact>
      <Input
        allowClear
        maxLength={100}
        style={{ width: 260 }}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '') onSearch('');
        }}
        onPressEnter={() => onSearch(text.trim())}
        data-testid={`${prefix}-keyword`}
      />
      <Button icon={<SearchOutlined />} onClick={() => onSearch(text.trim())} data-testid={`${prefix}-search`}>
        {t('fw.search')}
      </Button>
    </Space.Compact>
  );
}

/** Downloads a list as a text file (GET /firewall/export), fetched with the token. */
export function ExportButton({ list, testId }: { list: FirewallListKind | 'intercept'; testId: string }) {
  const { t } = useTranslation();
  const run = useMutation({
    mutationFn: async () => {
      const { blob, filename } = await exportFirewallList(list);
      saveBlob(blob, filename ?? `firewall-${list}.txt`);
    },
  });
  return (
    <Button icon={<ExportOutlined />} loading={run.isPending} onClick={() => run.mutate()} data-testid={testId}>
      {t('fw.export')}
    </Button>
  );
}

/** "N selected" beside a toolbar's buttons (`<prefix>-selected`), shown only while rows are selected. */
export function SelectedCount({ prefix, count }: { prefix: string; count: number }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <Typography.Text type="secondary" data-testid={`${prefix}-selected`}>
      {t('fw.selected', { count })}
    </Typography.Text>
  );
}

interface PagedSelectableTableProps<T extends { id: number }> {
  /** Test id prefix: `<prefix>-table`, `<prefix>-row-<id>`, `<prefix>-select-<id>`. */
  prefix: string;
  columns: TableColumnsType<T>;
  rows: T[];
  total: number;
  loading: boolean;
  scroll?: TableProps<T>['scroll'];
  /** Whether rows get checkboxes (the user may act on a selection). */
  selectable: boolean;
  selected: number[];
  setSelected: Dispatch<SetStateAction<number[]>>;
  query: PageQuery;
  setQuery: Dispatch<SetStateAction<PageQuery>>;
  /**
   * What the list shows while it has no entry (`<prefix>-empty`); a keyword search that found nothing
   * says so instead.
   */
  empty: EmptyTexts;
}

/** A server-paged table of entries keyed by id, with optional row selection; changing page or page size clears the selection. */
export function PagedSelectableTable<T extends { id: number }>(props: PagedSelectableTableProps<T>) {
  const { prefix, columns, rows, total, loading, scroll, selectable, selected, setSelected, query, setQuery, empty } = props;
  const { t } = useTranslation();
  const shown = query.keyword ? searchEmpty(t, query.keyword) : empty;
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      scroll={scroll}
      locale={{ emptyText: shown && <EmptyHint {...shown} testId={`${prefix}-empty`} /> }}
      rowSelection={
        selectable
          ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (r) => testId(`${prefix}-select-${r.id}`) }
          : undefined
      }
      onRow={(r) => testId(`${prefix}-row-${r.id}`)}
      pagination={{
        current: query.page,
        pageSize: query.size,
        total,
        showSizeChanger: true,
        pageSizeOptions: pageSizes,
        showTotal: (count) => t('fw.total', { count }),
        onChange: (page, size) => {
          setSelected([]);
          setQuery((q) => ({ ...q, page: size === q.size ? page : 1, size }));
        },
      }}
      data-testid={`${prefix}-table`}
    />
  );
}
