import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Space, Tag, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { websiteTimedAddSchema } from '@rampart/contracts';
import { TimedAddModal, TimedAddressList, useConfirmDanger, useTimedPage, type TimedAddSchema } from '../../components/TimedAddressList.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import type { PageQuery } from '../firewall/api.ts';
import { WebsiteFrame } from './WebsiteFrame.tsx';
import { addTimed, deleteTimed, fetchTimed, websiteKey, type TimedEntry, type TimedList } from './websiteApi.ts';

/** Most addresses one addition takes (websiteTimedAddSchema), for its message. */
const maxIps = 1000;

/** A row of the table: the entry with its index on the page as the key (addresses are unique per list). */
type Row = TimedEntry & { id: number };

const fetchRows = (list: TimedList) => (query: PageQuery) =>
  fetchTimed(list, query).then((page) => ({ total: page.total, list: page.list.map((entry, id): Row => ({ ...entry, id })) }));

/**
 * Adding by hand, or renewing listed addresses: both post the addresses with their minutes (the
 * console's add renews an address already listed: new end time, reason "added by hand").
 */
type Dialog = { kind: 'add' } | { kind: 'renew'; rows: Row[] };

function TimedBody({ list }: { list: TimedList }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const confirm = useConfirmDanger();
  const canAdd = useCan('website', 'add');
  const canDelete = useCan('website', 'delete');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const prefix = `web-${list}`;
  const state = useTimedPage<Row>([...websiteKey, list], fetchRows(list));
  const { rows, selected, setSelected } = state;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [...websiteKey, list] });

  const remove = useMutation({
    mutationFn: (ips: string[]) => deleteTimed(list, ips),
    onSuccess: () => {
      setSelected([]);
      refresh();
    },
  });
  const confirmRemove = (ips: string[]) =>
    confirm({
      title: t(`web.timed.${list}.delete_title`),
      content: t('web.timed.delete_confirm', { count: ips.length }),
      okTestId: `${prefix}-delete-confirm`,
      run: () => remove.mutateAsync(ips),
    });

  return (
    <>
      <TimedAddressList<Row>
        prefix={prefix}
        state={state}
        selectable={canDelete || canAdd}
        empty={{ text: t(`empty.web.${list}`), next: t(`empty.web.${list}_next`) }}
        texts={{
          ip: t('web.timed.ip'),
          reason: t('web.timed.reason'),
          detail: t('web.timed.detail'),
          startedAt: t(`web.timed.${list}.created_at`),
          expiresAt: t('web.timed.expires_at'),
          remaining: t('web.timed.remaining'),
          ended: t('web.timed.ended'),
          actions: t('web.actions'),
          keywordPlaceholder: t('web.timed.keyword_placeholder'),
        }}
        startedAt={(r) => r.created_at}
        reasonTag={(r) => <Tag data-testid={`${prefix}-reason-${r.id}`}>{t(`web.reason.${r.reason}`)}</Tag>}
        rowActions={
          canAdd || canDelete
            ? (r) => (
                <Space>
                  {canAdd && (
                    <Typography.Link onClick={() => setDialog({ kind: 'renew', rows: [r] })} data-testid={`${prefix}-renew-${r.id}`}>
                      {t('web.timed.renew')}
                    </Typography.Link>
                  )}
                  {canDelete && (
                    <Typography.Link onClick={() => confirmRemove([r.ip])} data-testid={`${prefix}-delete-${r.id}`}>
                      {t('web.delete')}
                    </Typography.Link>
                  )}
                </Space>
              )
            : undefined
        }
        toolbar={
          <>
            {canAdd && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })} data-testid={`${prefix}-add`}>
                {t(`web.timed.${list}.add`)}
              </Button>
            )}
            {canAdd && (
              <Button
                disabled={selected.length === 0}
                onClick={() => setDialog({ kind: 'renew', rows: rows.filter((r) => selected.includes(r.id)) })}
                data-testid={`${prefix}-renew-selected`}
              >
                {t('web.timed.renew_selected')}
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
          </>
        }
      />
      {dialog && (
        <TimedAddModal
          prefix={prefix}
          texts={{
            title: dialog.kind === 'add' ? t(`web.timed.${list}.add_title`) : t('web.timed.renew_title'),
            ok: dialog.kind === 'add' ? t('web.timed.add_ok') : t('web.timed.renew'),
            ips: t('web.timed.ips'),
            ipsHint: t('web.timed.ips_hint'),
            ipsPlaceholder: t('web.ph.host_ips'),
            minutes: dialog.kind === 'add' ? t('web.timed.minutes') : t('web.timed.renew_minutes'),
            unit: t('web.unit.minutes'),
            remark: t('web.timed.remark'),
          }}
          schema={websiteTimedAddSchema as TimedAddSchema}
          maxIps={maxIps}
          fixed={dialog.kind === 'renew' ? dialog.rows.map((r) => r.ip) : undefined}
          // A renewed single entry keeps its remark unless the user changes it.
          initialRemark={dialog.kind === 'renew' && dialog.rows.length === 1 ? dialog.rows[0]!.detail : ''}
          submit={(body) => addTimed(list, body)}
          onDone={() => {
            setSelected([]);
            refresh();
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </>
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
