import type { ComponentType } from 'react';

/** A lazily loaded tab page, in the shape react-router's `lazy` expects. */
export type TabPageLoader = () => Promise<{ Component: ComponentType }>;

/**
 * The tabs this build has pages for, keyed `section/tab`. Every other tab shows the placeholder
 * that says it is not in this build yet.
 */
export const tabPages: Readonly<Record<string, TabPageLoader>> = {
  'log/system': () => import('./log/SystemLogPage.tsx').then((m) => ({ Component: m.SystemLogPage })),
  'log/notice': () => import('./log/NoticePage.tsx').then((m) => ({ Component: m.NoticePage })),
  'log/photo': () => import('./log/PhotoPage.tsx').then((m) => ({ Component: m.PhotoPage })),
  'system/basic': () => import('./system/BasicSettingsPage.tsx').then((m) => ({ Component: m.BasicSettingsPage })),
  'system/log': () => import('./system/BackupRulesPage.tsx').then((m) => ({ Component: m.BackupRulesPage })),
  'system/portal': () => import('./system/PortalPage.tsx').then((m) => ({ Component: m.PortalPage })),
  'system/soft_reg': () => import('./system/RegistrationPage.tsx').then((m) => ({ Component: m.RegistrationPage })),
  'system/user': () => import('./system/AccountsPage.tsx').then((m) => ({ Component: m.AccountsPage })),
  'system/alerts': () => import('./system/AlertsPage.tsx').then((m) => ({ Component: m.AlertsPage })),
  'system/trust_terminal': () => import('./system/SuperWhitelistPage.tsx').then((m) => ({ Component: m.SuperWhitelistPage })),
  'system/shortcut': () => import('./system/ShortcutsPage.tsx').then((m) => ({ Component: m.ShortcutsPage })),
  'system/areas': () => import('./system/CommonAreasPage.tsx').then((m) => ({ Component: m.CommonAreasPage })),
  'system/config': () => import('./system/ConfigBackupPage.tsx').then((m) => ({ Component: m.ConfigBackupPage })),
  'firewall/rule_in': () => import('./firewall/RulesPage.tsx').then((m) => ({ Component: m.RuleInPage })),
  'firewall/rule_out': () => import('./firewall/RulesPage.tsx').then((m) => ({ Component: m.RuleOutPage })),
  'firewall/attack_protective': () => import('./firewall/AttackPage.tsx').then((m) => ({ Component: m.AttackPage })),
  'firewall/black_white_list': () => import('./firewall/ListsPage.tsx').then((m) => ({ Component: m.ListsPage })),
  'firewall/intercept_list': () => import('./firewall/InterceptPage.tsx').then((m) => ({ Component: m.InterceptPage })),
  'tamper/index': () => import('./tamper/RulesPage.tsx').then((m) => ({ Component: m.RulesPage })),
  'tamper/name': () => import('./tamper/NamingPage.tsx').then((m) => ({ Component: m.NamingPage })),
  'account/index': () => import('./account/AccountPage.tsx').then((m) => ({ Component: m.AccountPage })),
  'process/index': () => import('./process/ProcessPage.tsx').then((m) => ({ Component: m.ProcessPage })),
  'audit/system': () => import('./audit/SystemAuditPage.tsx').then((m) => ({ Component: m.SystemAuditPage })),
  'audit/system_reinforce': () => import('./audit/ReinforcePage.tsx').then((m) => ({ Component: m.ReinforcePage })),
  'audit/account': () => import('./audit/AccountAuditPage.tsx').then((m) => ({ Component: m.AccountAuditPage })),
  'audit/process': () => import('./audit/ProcessAuditPage.tsx').then((m) => ({ Component: m.ProcessAuditPage })),
  'audit/patch': () => import('./audit/PatchPage.tsx').then((m) => ({ Component: m.PatchPage })),
  'trojan/dirs': () => import('./trojan/DirsPage.tsx').then((m) => ({ Component: m.DirsPage })),
  'trojan/settings': () => import('./trojan/SettingsPage.tsx').then((m) => ({ Component: m.SettingsPage })),
  'trojan/isolate': () => import('./trojan/IsolatePage.tsx').then((m) => ({ Component: m.IsolatePage })),
  'audit/trojan': () => import('./trojan/AuditTrojanPage.tsx').then((m) => ({ Component: m.AuditTrojanPage })),
  'remote/index': () => import('./remote/RemotePage.tsx').then((m) => ({ Component: m.RemotePage })),
  'cloud/index': () => import('./cloud/CloudPage.tsx').then((m) => ({ Component: m.CloudPage })),
  'dynamic/index': () => import('./dynamic/DynamicPage.tsx').then((m) => ({ Component: m.DynamicPage })),
  'website/server': () => import('./website/ServerPage.tsx').then((m) => ({ Component: m.ServerPage })),
  'website/base': () => import('./website/BasePage.tsx').then((m) => ({ Component: m.BasePage })),
  'website/request': () => import('./website/RequestPage.tsx').then((m) => ({ Component: m.RequestPage })),
  'website/protect': () => import('./website/ProtectPage.tsx').then((m) => ({ Component: m.ProtectPage })),
  'website/sql': () => import('./website/SqlPage.tsx').then((m) => ({ Component: m.SqlPage })),
  'website/attack': () => import('./website/AttackPage.tsx').then((m) => ({ Component: m.AttackPage })),
  'website/response': () => import('./website/ResponsePage.tsx').then((m) => ({ Component: m.ResponsePage })),
  'website/lists': () => import('./website/ListsPage.tsx').then((m) => ({ Component: m.ListsPage })),
  'website/intercept_list': () => import('./website/TimedListPage.tsx').then((m) => ({ Component: m.InterceptListPage })),
  'website/author_list': () => import('./website/TimedListPage.tsx').then((m) => ({ Component: m.AuthorListPage })),
};

const placeholder: TabPageLoader = () => import('./section/TabPlaceholder.tsx').then((m) => ({ Component: m.TabPlaceholder }));

/** The page of `section/tab`, or the placeholder. */
export function tabPage(section: string, tab: string): TabPageLoader {
  return tabPages[`${section}/${tab}`] ?? placeholder;
}
