import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TamperOp } from '@rampart/contracts';

/** The denied operations as tags with the spec's labels (hover: the flag's meaning); none: an allow rule. */
export function OpTags({ ops, testId }: { ops: readonly TamperOp[]; testId?: string }) {
  const { t } = useTranslation();
  if (ops.length === 0) return <Tag color="green" data-testid={testId}>{t('tamper.allow_rule')}</Tag>;
  return (
    <Space size={[4, 4]} wrap data-testid={testId}>
      {ops.map((op) => (
        <Tooltip key={op} title={t(`tamper.op_hint.${op}`)}>
          <Tag color={op === 'r' || op === 'x' ? 'orange' : 'red'}>{t(`tamper.op.${op}`)}</Tag>
        </Tooltip>
      ))}
    </Space>
  );
}
