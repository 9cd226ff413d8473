import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, trust_terminal tab (being built). */
export function SuperWhitelistPage() {
  return <TabPlaceholder />;
}
