import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, shortcut tab (being built). */
export function ShortcutsPage() {
  return <TabPlaceholder />;
}
