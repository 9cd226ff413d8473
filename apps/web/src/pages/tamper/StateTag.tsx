import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RuleState } from '@rampart/contracts';

const stateColors: Record<RuleState, string> = { active: 'success', path_missing: 'warning', partial: 'warning', off: 'default', not_enforced: 'error' };

/** A rule's state as a tag whose tooltip says what it means. */
export function StateTag({ state, id }: { state: RuleState; id: number }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(`tamper.state_hint.${state}`)}>
      <Tag color={stateColors[state]} data-testid={`tamper-state-${id}`}>{t(`tamper.state.${state}`)}</Tag>
    </Tooltip>
  );
}

/** A path in a table cell: breaks anywhere, since a long path has no spaces to wrap at. */
export function PathText({ path }: { path: string }) {
  return <Typography.Text style={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>{path}</Typography.Text>;
}
