import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, InputNumber, Modal, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { websiteTimedAddSchema } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize } from '../firewall/api.ts';
import { entryLines, foldLineErrors, schemaErrors, spanText, useClampPage, useNow, type EntryLine } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { WebsiteFrame } from './WebsiteFrame.tsx';
import { addTimed, deleteTimed, fetchTimed, websiteKey, type TimedEntry, type TimedList, type TimedQuery } from './websiteApi.ts';

/** Minutes a manual entry lasts unless the user says otherwise. */
const defaultMinutes = 60;

/** Adds addresses by hand for a number of minutes (POST /website/<list>). */
function TimedAddModal({ list, onClose }: { list: TimedList; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [minutes, setMinutes] = useState<number | null>(defaultMinutes);
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const lines = entryLines(text);
  const describeLine = (entry: EntryLine, message: string) => t('fw.line_error', { line: entry.line, text: entry.text, message });
  const prefix = `web-${list}`;
  const err = (key: string) => errorProps(errors, key, prefix);

  const add = useMutation({
    mutationFn: (body: { ips: string[]; minutes: number; remark: string }) => addTimed(list, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...websiteKey, list] });
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors(foldLineErrors({ [field]: e.message }, 'ips', lines, describeLine));
    },
  });
  const submit = () => {
    const parsed = websiteTimedAddSchema.safeParse({ ips: lines.map((l) => l.text), minutes, remark });
    if (!parsed.success) {
      setErrors(foldLineErrors(schemaErrors(parsed.error.issues, lang, { max: 1000 }), 'ips', lines, describeLine));
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
  };

  return (
    <Modal
      open
      title={t(`web.timed.${list}.add_title`)}
      okText={t('web.timed.add_ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: add.isPending, ...testId(`${prefix}-add-save`) }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid={`${prefix}-add-form`}>
        <Form.Item label={t('web.timed.ips')} {...err('ips')} extra={t('web.timed.ips_hint')}>
          <Input.TextArea
            rows={5}
            value={text}
            placeholder={t('web.ph.host_ips')}
            onChange={(e) => {
              setText(e.target.value);
              setErrors(withoutError(errors, 'ips'));
            }}
            data-testid={`${prefix}-ips`}
          />
        </Form.Item>
        <Form.Item label={t('web.timed.minutes')} {...err('minutes')}>
          <InputNumber<number>
            style={{ width: 160 }}
            value={minutes}
            suffix={t('web.unit.minutes')}
            onChange={(v) => {
              setMinutes(v);
              setErrors(withoutError(errors, 'minutes'));
            }}
            data-testid={`${prefix}-minutes`}
          />
        </Form.Item>
        <Form.Item label={t('web.timed.remark')} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid={`${prefix}-remark`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A row of the table: the entry with its index on the page as the key (addresses are unique per list). */
type Row = TimedEntry & { id: number };

function TimedBody({ list }: { list: TimedList }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('website', 'add');
  const canDelete = useCan('website', 'delete');
  const [query, setQuery] = useState<TimedQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const now = useNow(30_000);
  const prefix = `web-${list}`;
  const data = useQuery({ queryKey: [...websiteKey, list, query], queryFn: () => fetchTimed(list, query), placeholderData: keepPreviousData });
  const rows: Row[] = (data.data?.list ?? []).map((entry, id) => ({ ...entry, id }));
  const total = data.data?.total ?? 0;
  useClampPage(data.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));

  const remove = useMutation({
    mutationFn: (ips: string[]) => deleteTimed(list, ips),
    onSuccess: () => {
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: [...websiteKey, list] });
    },
  });
  const confirmRemove = (ips: string[]) =>
    modal.confirm({
      title: t(`web.timed.${list}.delete_title`),
      content: t('web.timed.delete_confirm', { count: ips.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId(`${prefix}-delete-confirm`) },
      onOk: () => remove.mutateAsync(ips).catch(() => undefined),
    });

  const remaining = (expiresAt: number) => {
    if (expiresAt <= now) return t('web.timed.ended');
    return spanText(expiresAt - now, t);
  };

  const columns: TableColumnsType<Row> = [
    { key: 'ip', title: t('web.timed.ip'), dataIndex: 'ip', width: 170 },
    {
      key: 'reason', title: t('web.timed.reason'), dataIndex: 'reason', width: 150,
      render: (v: string, r) => <Tag data-testid={`${prefix}-reason-${r.id}`}>{t(`web.reason.${v}`)}</Tag>,
    },
    { key: 'detail', title: t('web.timed.detail'), dataIndex: 'detail', render: (v: string) => v || '-' },
    { key: 'created', title: t(`web.timed.${list}.created_at`), dataIndex: 'created_at', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'expires', title: t('web.timed.expires_at'), dataIndex: 'expires_at', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'remaining', title: t('web.timed.remaining'), dataIndex: 'expires_at', width: 140, render: (v: number) => remaining(v) },
  ];
  if (canDelete) {
    columns.push({
      key: 'actions', title: t('web.actions'), width: 90,
      render: (_v, r) => (
        <Typography.Link onClick={() => confirmRemove([r.ip])} data-testid={`${prefix}-delete-${r.id}`}>
          {t('web.delete')}
        </Typography.Link>
      ),
    });
  }

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid={`${prefix}-add`}>
              {t(`web.timed.${list}.add`)}
            </Button>
          )}
          {canDelete && (
            <Button
              icon={<DeleteOutlined />}
              disabled={selected.length === 0}
              onClick={() => confirmRemove(rows.filter((r) => selected.includes(r.id)).map((r) => r.ip))}
              data-testid={`${prefix}-delete-selected`}
            >
              {t('web.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix={prefix} count={selected.length} />
        </Space>
        <KeywordSearch
          prefix={prefix}
          placeholder={t('web.timed.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<Row>
        prefix={prefix}
        columns={columns}
        rows={rows}
        total={total}
        loading={data.isFetching}
        scroll={{ x: 1000 }}
        selectable={canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {adding && <TimedAddModal list={list} onClose={() => setAdding(false)} />}
    </Flex>
  );
}

/** The interception list: addresses the website protection blocked for a while. */
export function InterceptListPage() {
  return (
    <WebsiteFrame testId="web-intercept_list-page">
      <TimedBody list="intercept_list" />
    </WebsiteFrame>
  );
}

/** The authorization list: addresses the authorization password let in for a while. */
export function AuthorListPage() {
  return (
    <WebsiteFrame testId="web-author_list-page">
      <TimedBody list="author_list" />
    </WebsiteFrame>
  );
}
