import { Alert, App, Button, Card, Flex, Progress, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { translate, type AuditLevel, type ReinforceItem, type ReinforceItemResult, type ReinforceRunState } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { SelectedCount } from '../firewall/parts.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { applyReinforce, auditKey, fetchReinforceItems, revertReinforce } from './api.ts';
import { LevelTag, ReasonText, useLocalized } from './parts.tsx';
import { useAuditStatus } from './SystemAuditPage.tsx';

const statusColours: Record<ReinforceItemResult['status'], string> = { applied: 'green', refused: 'orange', failed: 'red', rolled_back: 'red', reverted: 'default' };

function ResultLine({ result }: { result: ReinforceItemResult }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={0} data-testid={`audit-reinforce-last-${result.checkId}`}>
      <Space size={4}>
        <Tag color={statusColours[result.status]}>{t(`audit.reinforce.status.${result.status}`)}</Tag>
        {result.status === 'applied' && <Typography.Text type="secondary">{t(`audit.reinforce.effect.${result.effect}`, { service: result.service ?? '' })}</Typography.Text>}
      </Space>
      {result.reason && <ReasonText reason={result.reason} testId={`audit-reinforce-reason-${result.checkId}`} />}
    </Space>
  );
}

/**
 * The `system_reinforce` tab: the fixable failed checks of the latest audit and every applied item.
 * Apply asks first (it changes the server; reloads and reboots are said), runs in the agent with
 * progress; each applied item reverts alone, or all at once, after a confirmation.
 */
export function ReinforcePage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const localized = useLocalized();
  const { modal, message } = App.useApp();
  const canEdit = useCan('audit', 'edit');
  const queryClient = useQueryClient();
  const status = useAuditStatus();
  const items = useQuery({ queryKey: [...auditKey, 'items'], queryFn: fetchReinforceItems });
  const [selected, setSelected] = useState<string[]>([]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: auditKey });
  const apply = useMutation({ mutationFn: applyReinforce, onSuccess: () => setSelected([]), onSettled: refresh });
  const revert = useMutation({ mutationFn: revertReinforce, onSettled: refresh });
  const rows = items.data?.list ?? [];
  const applied = rows.filter((r) => r.applied);
  const progress = status.data?.reinforce;
  const running = Boolean(progress?.running);
  const busy = running || Boolean(status.data?.running);
  const state: ReinforceRunState = running ? 'in_progress' : progress && progress.results.length > 0 ? 'finished' : 'start';
  const rebootSuggested = rows.some((r) => r.applied && r.effect === 'reboot');

  const onApply = () => {
    // The spec: reinforcement with nothing selected gives a message asking to select items.
    if (selected.length === 0) {
      void message.warning(translate(lang, 'audit_reinforce_nothing_selected'));
      return;
    }
    const ids = [...selected];
    modal.confirm({
      title: t('audit.reinforce.apply_title'),
      content: t('audit.reinforce.apply_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('audit-reinforce-apply-confirm') },
      onOk: () => apply.mutateAsync(ids).catch(() => undefined),
    });
  };
  const onRevert = (item: ReinforceItem | 'all') =>
    modal.confirm({
      title: t(item === 'all' ? 'audit.reinforce.revert_all_title' : 'audit.reinforce.revert_title'),
      content: item === 'all' ? t('audit.reinforce.revert_all_confirm', { count: applied.length }) : t('audit.reinforce.revert_confirm', { title: localized(item.title) }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('audit-reinforce-revert-confirm') },
      onOk: () => revert.mutateAsync(item === 'all' ? 'all' : [item.id]).catch(() => undefined),
    });

  const columns: TableColumnsType<ReinforceItem> = [
    { key: 'level', title: t('audit.col_level'), dataIndex: 'level', width: 90, render: (v: AuditLevel) => <LevelTag level={v} /> },
    {
      key: 'title', title: t('audit.col_title'), width: 280,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{localized(r.title)}</Typography.Text>
          <Typography.Text type="secondary">{t(`audit.category.${r.category}`)}</Typography.Text>
        </Space>
      ),
    },
    { key: 'advice', title: t('audit.col_advice'), width: 320, render: (_v, r) => localized(r.advice) },
    {
      key: 'state', title: t('audit.reinforce.col_state'), width: 240,
      render: (_v, r) => (
        <Space orientation="vertical" size={2} data-testid={`audit-reinforce-state-${r.id}`}>
          <Space size={4}>
            <Tag color={r.applied ? 'green' : 'default'}>{t(r.applied ? 'audit.reinforce.applied' : 'audit.reinforce.not_applied')}</Tag>
            {r.applied && r.effect && <Typography.Text type="secondary">{t(`audit.reinforce.effect.${r.effect}`, { service: r.service ?? '' })}</Typography.Text>}
          </Space>
          {r.last && r.last.status !== 'applied' && <ResultLine result={r.last} />}
        </Space>
      ),
    },
  ];
  if (canEdit) {
    columns.push({
      key: 'actions', title: '', width: 90, fixed: 'end',
      render: (_v, r) => r.applied && <Button size="small" disabled={busy} onClick={() => onRevert(r)} data-testid={`audit-reinforce-revert-${r.id}`}>{t('audit.reinforce.revert')}</Button>,
    });
  }

  return (
    <Flex vertical gap={16} data-testid="audit-reinforce-page">
      <Typography.Paragraph type="secondary">{t('audit.reinforce.intro')}</Typography.Paragraph>
      {canEdit && (
        <Space wrap>
          <Button type="primary" danger loading={running} disabled={busy && !running} onClick={onApply} data-testid="audit-reinforce-apply" data-state={state}>
            {running ? t('audit.reinforce.in_progress') : state === 'finished' ? t('audit.reinforce.again') : t('audit.reinforce.apply')}
          </Button>
          <Button disabled={applied.length === 0 || busy} onClick={() => onRevert('all')} data-testid="audit-reinforce-revert-all">{t('audit.reinforce.revert_all')}</Button>
          <SelectedCount prefix="audit-reinforce" count={selected.length} />
        </Space>
      )}
      {progress && (running || progress.results.length > 0) && (
        <Card size="small" title={t('audit.reinforce.last_run')} data-testid="audit-reinforce-progress">
          <Progress percent={Math.round((100 * progress.done) / Math.max(1, progress.total))} status={running ? 'active' : 'normal'} format={() => t('audit.reinforce.progress', { done: progress.done, total: progress.total })} />
          <Flex vertical gap={6}>
            {progress.results.map((r) => (
              <Space key={r.checkId} data-testid={`audit-reinforce-result-${r.checkId}`}>
                <Typography.Text code>{r.checkId}</Typography.Text>
                <ResultLine result={r} />
              </Space>
            ))}
          </Flex>
          {!running && progress.results.some((r) => r.status === 'applied') && <Typography.Text type="secondary">{t('audit.reinforce.audit_again_hint')}</Typography.Text>}
        </Card>
      )}
      {rebootSuggested && <Alert type="warning" showIcon title={t('audit.reinforce.reboot_suggested')} data-testid="audit-reinforce-reboot" />}
      <Table<ReinforceItem>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        loading={items.isFetching}
        scroll={{ x: 1000 }}
        pagination={false}
        locale={{ emptyText: t('audit.reinforce.no_items') }}
        rowSelection={canEdit ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), getCheckboxProps: (r) => ({ disabled: r.applied, ...testId(`audit-reinforce-check-${r.id}`) }) } : undefined}
        onRow={(r) => ({ 'data-testid': `audit-reinforce-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
        data-testid="audit-reinforce-items"
      />
    </Flex>
  );
}
