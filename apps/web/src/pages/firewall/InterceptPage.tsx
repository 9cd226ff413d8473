import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, InputNumber, Modal, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firewallInterceptAddBodySchema, interceptReasonNames, type InterceptEntry, type InterceptReason } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { addIntercepts, defaultPageSize, deleteIntercepts, fetchIntercepts, firewallKey, type Ids, type PageQuery } from './api.ts';
import { FirewallTab, useReportChange } from './FirewallTab.tsx';
import { entryLines, foldLineErrors, schemaErrors, spanText, useClampPage, useNow, type EntryLine } from './forms.ts';
import { ExportButton, KeywordSearch, PagedSelectableTable, SelectedCount } from './parts.tsx';

/** Most addresses one manual block takes (the console's limit), for its message. */
const maxManualIps = 10_000;
/** Minutes a manual block lasts unless the user says otherwise. */
export const defaultBlockMinutes = 60;

const reasonColours: Record<InterceptReason, string> = { port_scan: 'orange', ssh_bruteforce: 'red', http_404_scan: 'gold', http_cc: 'volcano', manual: 'blue' };

/** Blocks addresses by hand for a number of minutes. */
function InterceptAddModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const report = useReportChange();
  const [text, setText] = useState('');
  const [minutes, setMinutes] = useState<number | null>(defaultBlockMinutes);
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const lines = entryLines(text);
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });
  const err = (key: string) => errorProps(errors, key, 'fw-intercept');

  const add = useMutation({
    mutationFn: addIntercepts,
    onSuccess: (data) => {
      report(data);
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors(foldLineErrors({ [field]: e.message }, 'ips', lines, describeLine));
    },
  });
  const submit = () => {
    const parsed = firewallInterceptAddBodySchema.safeParse({ ips: lines.map((l) => l.text), minutes, remark });
    if (!parsed.success) {
      setErrors(foldLineErrors(schemaErrors(parsed.error.issues, lang, { max: maxManualIps }), 'ips', lines, describeLine));
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
  };

  return (
    <Modal
      open
      title={t('fw.intercept.add_title')}
      okText={t('fw.intercept.block')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: add.isPending, ...testId('fw-intercept-add-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="fw-intercept-add-form">
        <Form.Item label={t('fw.intercept.ips')} {...err('ips')} extra={t('fw.intercept.ips_hint')}>
          <Input.TextArea
            rows={5}
            value={text}
            placeholder={t('fw.intercept.ips_placeholder')}
            onChange={(e) => {
              setText(e.target.value);
              setErrors(withoutError(errors, 'ips'));
            }}
            data-testid="fw-intercept-ips"
          />
        </Form.Item>
        <Form.Item label={t('fw.intercept.minutes')} {...err('minutes')}>
          <InputNumber<number>
            style={{ width: 160 }}
            value={minutes}
            suffix={t('fw.unit.minutes')}
            onChange={(v) => {
              setMinutes(v);
              setErrors(withoutError(errors, 'minutes'));
            }}
            data-testid="fw-intercept-minutes"
          />
        </Form.Item>
        <Form.Item label={t('fw.remark')} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="fw-intercept-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function InterceptBody() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const report = useReportChange();
  const canAdd = useCan('firewall', 'add');
  const canDelete = useCan('firewall', 'delete');
  const canExport = useCan('firewall', 'export');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const now = useNow(30_000);
  const list = useQuery({ queryKey: [...firewallKey, 'intercept', query], queryFn: () => fetchIntercepts(query), placeholderData: keepPreviousData });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));

  const unblock = useMutation({
    mutationFn: (ids: Ids) => deleteIntercepts(ids),
    onSuccess: (data, ids) => {
      setSelected([]);
      if (ids === 'all') setQuery((q) => ({ ...q, page: 1 }));
      report(data);
    },
  });
  const confirmUnblock = (ids: Ids) =>
    modal.confirm({
      title: t('fw.intercept.unblock_title'),
      content: ids === 'all' ? t('fw.intercept.unblock_all_confirm', { count: total }) : t('fw.intercept.unblock_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('fw-intercept-unblock-confirm') },
      onOk: () => unblock.mutateAsync(ids).catch(() => undefined),
    });

  // The page's clock ticks every 30 s: a row fetched since then never shows more than its whole block time.
  const remaining = (expiresAt: number, blockedAt: number) => {
    if (expiresAt <= now) return t('fw.intercept.ended');
    return spanText(Math.min(expiresAt - now, expiresAt - blockedAt), t);
  };

  const columns: TableColumnsType<InterceptEntry> = [
    { key: 'ip', title: t('fw.intercept.ip'), dataIndex: 'ip', width: 170 },
    {
      key: 'reason', title: t('fw.intercept.reason'), dataIndex: 'reason', width: 150,
      render: (v: InterceptReason, r) => <Tag color={reasonColours[v]} data-testid={`fw-intercept-reason-${r.id}`}>{interceptReasonNames[v]?.[lang] ?? v}</Tag>,
    },
    { key: 'detail', title: t('fw.intercept.detail'), dataIndex: 'detail', render: (v: string) => v || '-' },
    { key: 'blocked', title: t('fw.intercept.blocked_at'), dataIndex: 'blocked_at', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'expires', title: t('fw.intercept.expires_at'), dataIndex: 'expires_at', width: 170, render: (v: number) => formatDateTime(v) },
    {
      key: 'remaining', title: t('fw.intercept.remaining'), dataIndex: 'expires_at', width: 140,
      render: (v: number, r) => <span data-testid={`fw-intercept-remaining-${r.id}`}>{remaining(v, r.blocked_at)}</span>,
    },
  ];
  if (canDelete) {
    columns.push({
      key: 'actions', title: t('fw.actions'), width: 90,
      render: (_v, r) => (
        <Typography.Link onClick={() => confirmUnblock([r.id])} data-testid={`fw-intercept-unblock-${r.id}`}>
          {t('fw.intercept.unblock')}
        </Typography.Link>
      ),
    });
  }

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="fw-intercept-add">
              {t('fw.intercept.add')}
            </Button>
          )}
          {canDelete && (
            <>
              <Button icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmUnblock(selected)} data-testid="fw-intercept-unblock-selected">
                {t('fw.intercept.unblock_selected')}
              </Button>
              <Button danger disabled={total === 0} onClick={() => confirmUnblock('all')} data-testid="fw-intercept-unblock-all">
                {t('fw.intercept.unblock_all')}
              </Button>
            </>
          )}
          {canExport && <ExportButton list="intercept" testId="fw-intercept-export" />}
          <SelectedCount prefix="fw-intercept" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="fw-intercept"
          placeholder={t('fw.intercept.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<InterceptEntry>
        prefix="fw-intercept"
        columns={columns}
        rows={rows}
        total={total}
        loading={list.isFetching}
        scroll={{ x: 1000 }}
        selectable={canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {adding && <InterceptAddModal onClose={() => setAdding(false)} />}
    </Flex>
  );
}

/** The interception list: addresses blocked for a while by a detection or by hand. */
export function InterceptPage() {
  return (
    <FirewallTab testId="fw-intercept-page">
      <InterceptBody />
    </FirewallTab>
  );
}
