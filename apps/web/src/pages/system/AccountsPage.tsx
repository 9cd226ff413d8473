import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, user tab (being built). */
export function AccountsPage() {
  return <TabPlaceholder />;
}
