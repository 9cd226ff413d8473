import type { PermissionKey } from './permissions.ts';
import type { ModuleKey } from './modules.ts';

export interface TabDef {
  key: string;
  /** Overrides the section's permission for this tab (audit/patch, log/photo). */
  permission?: PermissionKey;
  /** The tab opens a modal over the current tab instead of navigating. */
  modal?: boolean;
}

export interface SectionDef {
  key: string;
  path: string;
  permission: PermissionKey;
  /** Icon name from @ant-design/icons, resolved by the web app. */
  icon: string;
  tabs: readonly TabDef[];
  defaultTab?: string;
  /** The module whose ON/OFF switch sits in the page header. */
  module?: ModuleKey;
}

export interface HiddenPageDef {
  path: string;
  /** Title key under `page.` in the locales. */
  key: string;
  permission: PermissionKey;
}

/**
 * The one table of the console's sections: menu entries, routes, tabs and permission keys.
 * The web app builds its router and menu from it; the console's tests read it to check the server.
 * Titles are the locale keys `menu.<key>` and `tab.<key>.<tab>`.
 */
export const sections: readonly SectionDef[] = [
  { key: 'dashboard', path: '/dashboard', permission: 'home', icon: 'HomeOutlined', tabs: [] },
  {
    key: 'firewall', path: '/firewall', permission: 'firewall', icon: 'SafetyOutlined', module: 'firewall',
    defaultTab: 'rule_in',
    tabs: [{ key: 'rule_in' }, { key: 'rule_out' }, { key: 'attack_protective' }, { key: 'black_white_list' }, { key: 'intercept_list' }],
  },
  {
    key: 'website', path: '/website', permission: 'website', icon: 'GlobalOutlined', module: 'website',
    defaultTab: 'server',
    tabs: [
      { key: 'server' }, { key: 'base' }, { key: 'request' }, { key: 'protect' }, { key: 'sql' },
      { key: 'attack' }, { key: 'response' }, { key: 'lists' }, { key: 'intercept_list' }, { key: 'author_list' },
    ],
  },
  {
    key: 'trojan', path: '/trojan', permission: 'trojan', icon: 'BugOutlined', module: 'trojan',
    defaultTab: 'dirs',
    // Choice: scan settings are a short form, so the settings tab opens as a modal over the directory list.
    tabs: [{ key: 'dirs' }, { key: 'settings', modal: true }, { key: 'isolate' }],
  },
  { key: 'remote', path: '/remote', permission: 'remote', icon: 'DesktopOutlined', module: 'remote', defaultTab: 'index', tabs: [{ key: 'index' }] },
  { key: 'account', path: '/account', permission: 'account', icon: 'UserOutlined', module: 'account', defaultTab: 'index', tabs: [{ key: 'index' }] },
  {
    key: 'tamper', path: '/tamper', permission: 'tamper', icon: 'FileProtectOutlined', module: 'tamper',
    defaultTab: 'index', tabs: [{ key: 'index' }, { key: 'name' }],
  },
  { key: 'process', path: '/process', permission: 'process', icon: 'ApartmentOutlined', module: 'process', defaultTab: 'index', tabs: [{ key: 'index' }] },
  { key: 'cloud', path: '/cloud', permission: 'cloud', icon: 'CloudOutlined', module: 'cloud', defaultTab: 'index', tabs: [{ key: 'index' }] },
  {
    key: 'audit', path: '/audit', permission: 'audit', icon: 'AuditOutlined', defaultTab: 'system',
    tabs: [
      { key: 'system' }, { key: 'system_reinforce' }, { key: 'patch', permission: 'audit_patch' },
      { key: 'trojan' }, { key: 'account' }, { key: 'process' },
    ],
  },
  { key: 'dynamic', path: '/dynamic', permission: 'dynamic', icon: 'FundOutlined', defaultTab: 'index', tabs: [{ key: 'index' }] },
  {
    key: 'log', path: '/log', permission: 'log', icon: 'ProfileOutlined', defaultTab: 'system',
    tabs: [{ key: 'system' }, { key: 'notice' }, { key: 'photo', permission: 'log_photo' }],
  },
  {
    key: 'system', path: '/system', permission: 'system', icon: 'SettingOutlined', defaultTab: 'basic',
    tabs: [
      { key: 'basic' }, { key: 'portal' }, { key: 'log' }, { key: 'soft_reg' }, { key: 'user' },
      { key: 'alerts' }, { key: 'trust_terminal' },
      // Choice: the spec names shortcut management, common areas and configuration backup without
      // placing them; each gets a tab of its own after the spec's seven.
      { key: 'shortcut' }, { key: 'areas' }, { key: 'config' },
    ],
  },
];

/** Pages reachable by path but not listed in the menu. */
export const hiddenPages: readonly HiddenPageDef[] = [
  { path: '/dynamic/style_1', key: 'dynamic_style_1', permission: 'dynamic' },
];

/** Paths that skip the route guard. */
export const errorPaths = ['/403', '/404', '/500'] as const;

export const defaultPath = '/dashboard';

export function tabPermission(section: SectionDef, tabKey: string): PermissionKey {
  return section.tabs.find((t) => t.key === tabKey)?.permission ?? section.permission;
}
