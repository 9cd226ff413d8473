import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, alerts tab (being built). */
export function AlertsPage() {
  return <TabPlaceholder />;
}
