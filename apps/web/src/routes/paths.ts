import { can, defaultPath, sections, type Permission, type SectionDef } from '@rampart/contracts';

export function visibleSections(permissions: readonly Permission[]): SectionDef[] {
  return sections.filter((s) => can(permissions, s.permission, 'get'));
}

/** Where a role lands: the dashboard, or the first section it may see (the auditor: the event log). */
export function landingPath(permissions: readonly Permission[]): string {
  if (can(permissions, 'home', 'get')) return defaultPath;
  return visibleSections(permissions)[0]?.path ?? '/403';
}

/** The redirect query is honoured only for in-app paths, never for another origin or the sign-in pages. */
export function safeRedirect(redirect: string | null | undefined): string | undefined {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/user/')) return undefined;
  return redirect;
}

export function afterSignIn(redirect: string | null | undefined, permissions: readonly Permission[]): string {
  return safeRedirect(redirect) ?? landingPath(permissions);
}

export function sectionPath(section: SectionDef, tab?: string): string {
  return tab ? `${section.path}/${tab}` : section.path;
}
