import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, portal tab (being built). */
export function PortalPage() {
  return <TabPlaceholder />;
}
