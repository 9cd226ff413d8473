/*
 * The API client has to send the user elsewhere (401 → sign-in, 503 → register) from outside React.
 * The App binds these to the router; until then they fall back to the location hash.
 */

export interface Navigation {
  go(to: string): void;
  /** The current in-app path with its query, e.g. "/firewall/rule_in?x=1". */
  current(): string;
}

const hashNavigation: Navigation = {
  go: (to) => {
    window.location.hash = `#${to}`;
  },
  current: () => window.location.hash.replace(/^#/, '') || '/',
};

let navigation: Navigation = hashNavigation;

export function setNavigation(next: Navigation | null): void {
  navigation = next ?? hashNavigation;
}

export function navigateTo(to: string): void {
  navigation.go(to);
}

export function currentPath(): string {
  return navigation.current();
}

export const loginPath = '/user/login';
export const registerPath = '/user/register';

/** The sign-in path that comes back to `from` afterwards (no redirect back into the sign-in pages). */
export function loginPathFor(from: string): string {
  if (from === '/' || from.startsWith('/user/')) return loginPath;
  return `${loginPath}?redirect=${encodeURIComponent(from)}`;
}
