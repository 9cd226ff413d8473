import { Alert, Button, Checkbox, Flex, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AuditLevel } from '@rampart/contracts';
import { LevelTag } from './parts.tsx';
import type { InventoryPage } from './inventory-api.ts';

const levelColours: Record<AuditLevel, string> = { hint: 'blue', warning: 'orange', danger: 'red' };

interface Finding {
  kind: string;
  level: AuditLevel;
  detail: string;
}

/** Finding tags in level colours; hovering one explains it (`audit_inv.<tab>.finding.<kind>`). */
export function FindingTags({ tab, findings, testId }: { tab: 'account' | 'process'; findings: readonly Finding[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Space size={[4, 4]} wrap data-testid={testId}>
      {findings.map((f) => (
        <Tooltip key={f.kind} title={t(`audit_inv.${tab}.finding.${f.kind}.explain`)}>
          <Tag color={levelColours[f.level]} data-testid={`${testId}-${f.kind}`} data-level={f.level}>{t(`audit_inv.${tab}.finding.${f.kind}.title`)}</Tag>
        </Tooltip>
      ))}
    </Space>
  );
}

/** The expanded row's reading of each finding: level, title, what it means, and what was seen. */
export function FindingExplanations({ tab, findings }: { tab: 'account' | 'process'; findings: readonly Finding[] }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6}>
      {findings.map((f) => (
        <div key={f.kind} data-testid={`inventory-explain-${f.kind}`}>
          <LevelTag level={f.level} /> <Typography.Text strong>{t(`audit_inv.${tab}.finding.${f.kind}.title`)}</Typography.Text>{' '}
          {f.detail && <Typography.Text code>{f.detail}</Typography.Text>}
          <div><Typography.Text type="secondary">{t(`audit_inv.${tab}.finding.${f.kind}.explain`)}</Typography.Text></div>
        </div>
      ))}
    </Flex>
  );
}

/** Above each table: a search, "findings only", refresh, and the count of findings by level over all rows. */
export function InventoryToolbar({ prefix, findingsOnly, onFindingsOnly, onSearch, onRefresh, loading, data }: {
  prefix: string;
  findingsOnly: boolean;
  onFindingsOnly: (on: boolean) => void;
  onSearch: (keyword: string) => void;
  onRefresh: () => void;
  loading: boolean;
  data: InventoryPage<unknown> | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12}>
      {data && !data.available && <Alert type="warning" showIcon title={t('audit_inv.not_available')} data-testid={`${prefix}-not-available`} />}
      <Flex gap={16} align="center" wrap>
        <Input.Search allowClear maxLength={100} style={{ width: 260 }} placeholder={t(`audit_inv.${prefix === 'audit-account' ? 'account' : 'process'}.search`)} onSearch={onSearch} data-testid={`${prefix}-search`} />
        <Checkbox checked={findingsOnly} onChange={(e) => onFindingsOnly(e.target.checked)} data-testid={`${prefix}-findings-only`}>{t('audit_inv.findings_only')}</Checkbox>
        <Button icon={<ReloadOutlined />} loading={loading} onClick={onRefresh} data-testid={`${prefix}-refresh`}>{t('audit_inv.refresh')}</Button>
        {data?.available && <Typography.Text type="secondary" data-testid={`${prefix}-summary`}>{t('audit_inv.summary', data.findings)}</Typography.Text>}
      </Flex>
    </Flex>
  );
}
