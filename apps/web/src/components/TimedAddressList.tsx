import { App, Flex, Form, Input, InputNumber, Modal, Space, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { errorField, isApiError } from '../api/errors.ts';
import { useLanguage } from '../i18n/useLanguage.ts';
import { defaultPageSize, type PageQuery } from '../pages/firewall/api.ts';
import { entryLines, foldLineErrors, schemaErrors, spanText, useClampPage, useNow, type EntryLine } from '../pages/firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../pages/firewall/parts.tsx';
import { formatDateTime } from '../utils/format.ts';
import { testId } from '../utils/testId.ts';
import type { EmptyTexts } from './EmptyHint.tsx';
import { errorProps, withoutError, type FieldErrors, type IssueLike } from './forms/fieldErrors.tsx';

/*
 * Addresses held for a while — the firewall's interception list, the website's interception and
 * authorization lists: a searchable, paged table with the time left, a modal that adds addresses
 * for a number of minutes, and the confirmation before a destructive action. The pages bring their
 * calls, texts, reason words and buttons. Test ids all start with the page's `prefix`.
 */

/** A row: an address, why it is listed, until when. `id` keys the row on its page. */
export interface TimedRow {
  id: number;
  ip: string;
  reason: string;
  detail: string;
  expires_at: number;
}

/** What the add modal posts. */
export interface TimedAddBody {
  ips: string[];
  minutes: number;
  remark: string;
}

/** A contract schema for the add body (the firewall's and the website's differ only in their limits). */
export interface TimedAddSchema {
  safeParse(value: unknown): { success: true; data: TimedAddBody } | { success: false; error: { issues: readonly IssueLike[] } };
}

/** Minutes an addition by hand lasts unless the user says otherwise. */
export const defaultTimedMinutes = 60;

/** The page's query (keyword, page, size), its selection and the page of rows the console answered. */
export interface TimedPageState<T extends TimedRow> {
  query: PageQuery;
  setQuery: Dispatch<SetStateAction<PageQuery>>;
  selected: number[];
  setSelected: Dispatch<SetStateAction<number[]>>;
  rows: T[];
  total: number;
  loading: boolean;
}

/** Reads a page of the list under `queryKey` (+ the query), keeping the last page while the next loads. */
export function useTimedPage<T extends TimedRow>(queryKey: readonly unknown[], fetchPage: (query: PageQuery) => Promise<{ total: number; list: T[] }>): TimedPageState<T> {
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const data = useQuery({ queryKey: [...queryKey, query], queryFn: () => fetchPage(query), placeholderData: keepPreviousData });
  useClampPage(data.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  return { query, setQuery, selected, setSelected, rows: data.data?.list ?? [], total: data.data?.total ?? 0, loading: data.isFetching };
}

/** Asks before a destructive action; `run` happens on OK (its failure was already shown by the API client). */
export function useConfirmDanger() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return ({ title, content, okTestId, run }: { title: string; content: ReactNode; okTestId: string; run: () => Promise<unknown> }) =>
    modal.confirm({
      title,
      content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId(okTestId) },
      onOk: () => run().catch(() => undefined),
    });
}

export interface TimedListTexts {
  ip: string;
  reason: string;
  detail: string;
  startedAt: string;
  expiresAt: string;
  remaining: string;
  /** Shown in the time-left column once the end has passed (until the next refresh drops the row). */
  ended: string;
  actions: string;
  keywordPlaceholder: string;
}

/**
 * The toolbar (the page's buttons, the selected count, the keyword search) and the table: address,
 * reason, detail, start, end, time left (`<prefix>-remaining-<id>`), and the page's row actions;
 * `empty` while no address is listed.
 */
export function TimedAddressList<T extends TimedRow>({ prefix, state, texts, empty, startedAt, reasonTag, rowActions, toolbar, selectable }: {
  prefix: string;
  state: TimedPageState<T>;
  texts: TimedListTexts;
  empty: EmptyTexts;
  startedAt: (row: T) => number;
  reasonTag: (row: T) => ReactNode;
  rowActions?: (row: T) => ReactNode;
  toolbar: ReactNode;
  selectable: boolean;
}) {
  const { t } = useTranslation();
  const now = useNow(30_000);
  // The page's clock ticks every 30 s: a row fetched since then never shows more than its whole time.
  const remaining = (row: T) => (row.expires_at <= now ? texts.ended : spanText(Math.min(row.expires_at - now, row.expires_at - startedAt(row)), t));

  const columns: TableColumnsType<T> = [
    { key: 'ip', title: texts.ip, dataIndex: 'ip', width: 170 },
    { key: 'reason', title: texts.reason, width: 150, render: (_v, row) => reasonTag(row) },
    { key: 'detail', title: texts.detail, dataIndex: 'detail', render: (v: string) => v || '-' },
    { key: 'started', title: texts.startedAt, width: 170, render: (_v, row) => formatDateTime(startedAt(row)) },
    { key: 'expires', title: texts.expiresAt, dataIndex: 'expires_at', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'remaining', title: texts.remaining, width: 140, render: (_v, row) => <span data-testid={`${prefix}-remaining-${row.id}`}>{remaining(row)}</span> },
  ];
  if (rowActions) columns.push({ key: 'actions', title: texts.actions, width: 130, render: (_v, row) => rowActions(row) });

  const { setQuery, setSelected } = state;
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {toolbar}
          <SelectedCount prefix={prefix} count={state.selected.length} />
        </Space>
        <KeywordSearch
          prefix={prefix}
          placeholder={texts.keywordPlaceholder}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<T>
        prefix={prefix}
        columns={columns}
        rows={state.rows}
        total={state.total}
        loading={state.loading}
        scroll={{ x: 1000 }}
        selectable={selectable}
        selected={state.selected}
        setSelected={setSelected}
        query={state.query}
        setQuery={setQuery}
        empty={empty}
      />
    </Flex>
  );
}

export interface TimedAddTexts {
  title: string;
  ok: string;
  ips: string;
  ipsHint: string;
  ipsPlaceholder: string;
  minutes: string;
  unit: string;
  remark: string;
}

/**
 * Adds addresses for a number of minutes (with a remark). `fixed` renews given addresses: the box
 * shows them and can't be changed. Errors of single addresses name the line they were typed on.
 */
export function TimedAddModal({ prefix, texts, schema, maxIps, fixed, initialRemark = '', submit, onDone, onClose }: {
  prefix: string;
  texts: TimedAddTexts;
  schema: TimedAddSchema;
  /** The most addresses one addition takes, for its message. */
  maxIps: number;
  fixed?: readonly string[];
  initialRemark?: string;
  submit: (body: TimedAddBody) => Promise<unknown>;
  onDone: (answer: unknown) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [text, setText] = useState(() => fixed?.join('\n') ?? '');
  const [minutes, setMinutes] = useState<number | null>(defaultTimedMinutes);
  const [remark, setRemark] = useState(initialRemark);
  const [errors, setErrors] = useState<FieldErrors>({});
  const lines = entryLines(text);
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });
  const err = (key: string) => errorProps(errors, key, prefix);

  const add = useMutation({
    mutationFn: submit,
    onSuccess: (answer) => {
      onDone(answer);
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors(foldLineErrors({ [field]: e.message }, 'ips', lines, describeLine));
    },
  });
  const send = () => {
    const parsed = schema.safeParse({ ips: lines.map((l) => l.text), minutes, remark });
    if (!parsed.success) {
      setErrors(foldLineErrors(schemaErrors(parsed.error.issues, lang, { max: maxIps }), 'ips', lines, describeLine));
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
  };

  return (
    <Modal
      open
      title={texts.title}
      okText={texts.ok}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: add.isPending, ...testId(`${prefix}-add-save`) }}
      cancelButtonProps={testId(`${prefix}-add-cancel`)}
      onOk={send}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid={`${prefix}-add-form`}>
        <Form.Item label={texts.ips} {...err('ips')} extra={fixed ? undefined : texts.ipsHint}>
          <Input.TextArea
            rows={fixed ? Math.min(fixed.length, 5) : 5}
            value={text}
            disabled={fixed !== undefined}
            placeholder={texts.ipsPlaceholder}
            onChange={(e) => {
              setText(e.target.value);
              setErrors((current) => withoutError(current, 'ips'));
            }}
            data-testid={`${prefix}-ips`}
          />
        </Form.Item>
        <Form.Item label={texts.minutes} {...err('minutes')}>
          <InputNumber<number>
            style={{ width: 160 }}
            value={minutes}
            suffix={texts.unit}
            onChange={(v) => {
              setMinutes(v);
              setErrors((current) => withoutError(current, 'minutes'));
            }}
            data-testid={`${prefix}-minutes`}
          />
        </Form.Item>
        <Form.Item label={texts.remark} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid={`${prefix}-remark`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
