import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, areas tab (being built). */
export function CommonAreasPage() {
  return <TabPlaceholder />;
}
