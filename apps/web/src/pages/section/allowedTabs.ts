import { can, tabPermission, type Permission, type SectionDef, type TabDef } from '@rampart/contracts';

/** The tabs of a section the role may see (a tab can override the section's permission). */
export function allowedTabs(section: SectionDef, permissions: readonly Permission[]): TabDef[] {
  return section.tabs.filter((tab) => can(permissions, tabPermission(section, tab.key), 'get'));
}

/** The section's default tab, or the first allowed tab that is a page (modal tabs are not). */
export function defaultTabOf(section: SectionDef, permissions: readonly Permission[]): string | undefined {
  const pages = allowedTabs(section, permissions).filter((t) => !t.modal);
  return pages.find((t) => t.key === section.defaultTab)?.key ?? pages[0]?.key;
}
