import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, config tab (being built). */
export function ConfigBackupPage() {
  return <TabPlaceholder />;
}
