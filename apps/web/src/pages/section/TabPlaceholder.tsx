import { useLocation, useMatches } from 'react-router-dom';
import type { RouteHandle } from '../../routes/title.ts';
import { NotInBuild } from './NotInBuild.tsx';

/** The content of a tab route in this build: names the tab and says it is not in this build yet. */
export function TabPlaceholder() {
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.titleKey)?.handle as RouteHandle | undefined;
  // `/audit/account` → `audit_account`: the key of what this build offers meanwhile.
  const tab = useLocation().pathname.split('/').filter(Boolean).slice(0, 2).join('_');
  return <NotInBuild nameKey={handle?.titleKey ?? 'common.unknown'} tab={tab} />;
}
