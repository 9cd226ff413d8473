import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firewallInterceptAddBodySchema, interceptReasonNames, type FirewallChange, type InterceptEntry, type InterceptReason } from '@rampart/contracts';
import { TimedAddModal, TimedAddressList, useConfirmDanger, useTimedPage, type TimedAddSchema } from '../../components/TimedAddressList.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { addIntercepts, deleteIntercepts, fetchIntercepts, firewallKey, type Ids } from './api.ts';
import { FirewallTab, useReportChange } from './FirewallTab.tsx';
import { ExportButton } from './parts.tsx';

/** Most addresses one manual block takes (the console's limit), for its message. */
const maxManualIps = 10_000;

const reasonColours: Record<InterceptReason, string> = { port_scan: 'orange', ssh_bruteforce: 'red', http_404_scan: 'gold', http_cc: 'volcano', manual: 'blue' };

function InterceptBody() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const report = useReportChange();
  const confirm = useConfirmDanger();
  const canAdd = useCan('firewall', 'add');
  const canDelete = useCan('firewall', 'delete');
  const canExport = useCan('firewall', 'export');
  const [adding, setAdding] = useState(false);
  const state = useTimedPage<InterceptEntry>([...firewallKey, 'intercept'], fetchIntercepts);
  const { total, selected, setSelected, setQuery } = state;

  const unblock = useMutation({
    mutationFn: (ids: Ids) => deleteIntercepts(ids),
    onSuccess: (data, ids) => {
      setSelected([]);
      if (ids === 'all') setQuery((q) => ({ ...q, page: 1 }));
      report(data);
    },
  });
  const confirmUnblock = (ids: Ids) =>
    confirm({
      title: t('fw.intercept.unblock_title'),
      content: ids === 'all' ? t('fw.intercept.unblock_all_confirm', { count: total }) : t('fw.intercept.unblock_confirm', { count: ids.length }),
      okTestId: 'fw-intercept-unblock-confirm',
      run: () => unblock.mutateAsync(ids),
    });

  return (
    <>
      <TimedAddressList<InterceptEntry>
        prefix="fw-intercept"
        state={state}
        selectable={canDelete}
        empty={{ text: t('empty.fw.intercept'), next: t('empty.fw.intercept_next') }}
        texts={{
          ip: t('fw.intercept.ip'),
          reason: t('fw.intercept.reason'),
          detail: t('fw.intercept.detail'),
          startedAt: t('fw.intercept.blocked_at'),
          expiresAt: t('fw.intercept.expires_at'),
          remaining: t('fw.intercept.remaining'),
          ended: t('fw.intercept.ended'),
          actions: t('fw.actions'),
          keywordPlaceholder: t('fw.intercept.keyword_placeholder'),
        }}
        startedAt={(r) => r.blocked_at}
        reasonTag={(r) => (
          <Tag color={reasonColours[r.reason]} data-testid={`fw-intercept-reason-${r.id}`}>
            {interceptReasonNames[r.reason]?.[lang] ?? r.reason}
          </Tag>
        )}
        rowActions={
          canDelete
            ? (r) => (
                <Typography.Link onClick={() => confirmUnblock([r.id])} data-testid={`fw-intercept-unblock-${r.id}`}>
                  {t('fw.intercept.unblock')}
                </Typography.Link>
              )
            : undefined
        }
        toolbar={
          <>
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
          </>
        }
      />
      {adding && (
        <TimedAddModal
          prefix="fw-intercept"
          texts={{
            title: t('fw.intercept.add_title'),
            ok: t('fw.intercept.block'),
            ips: t('fw.intercept.ips'),
            ipsHint: t('fw.intercept.ips_hint'),
            ipsPlaceholder: t('fw.intercept.ips_placeholder'),
            minutes: t('fw.intercept.minutes'),
            unit: t('fw.unit.minutes'),
            remark: t('fw.remark'),
          }}
          schema={firewallInterceptAddBodySchema as TimedAddSchema}
          maxIps={maxManualIps}
          submit={addIntercepts}
          onDone={(answer) => report(answer as FirewallChange)}
          onClose={() => setAdding(false)}
        />
      )}
    </>
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
