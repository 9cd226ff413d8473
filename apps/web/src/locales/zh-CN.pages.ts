import type { PageTexts } from './types.ts';
import { systemBasicZh } from './parts/system-basic.ts';
import { systemPortalZh } from './parts/system-portal.ts';
import { systemUsersZh } from './parts/system-users.ts';
import { systemAlertsZh } from './parts/system-alerts.ts';
import { systemTrustZh } from './parts/system-trust.ts';
import { commonAreasZh } from './parts/common-areas.ts';
import { configBackupZh } from './parts/config-backup.ts';
import { websiteZh } from './parts/website.ts';
import { systemRegZh } from './parts/system-reg.ts';
import { shortcutsZh } from './parts/shortcuts.ts';
import { tamperZh, guardWarningZh } from './parts/tamper.ts';
import { accountZh } from './parts/account.ts';
import { processZh } from './parts/process.ts';
import { trojanZh } from './parts/trojan.ts';
import { auditZh } from './parts/audit.ts';
import { auditInventoryZh } from './parts/audit-inventory.ts';
import { auditPatchZh } from './parts/audit-patch.ts';
import { auditReportZh } from './parts/audit-report.ts';
import { remoteZh } from './parts/remote.ts';
import { cloudZh } from './parts/cloud.ts';
import { dynamicZh } from './parts/dynamic.ts';
import { wizardZh } from './parts/wizard.ts';
import { homeUpdateZh } from './parts/home-update.ts';

/** 登录后加载的控制台页面文本（登录页不带它们，issue 27）。键与 en-US.pages.ts 完全一致。 */
const zhCNPages: PageTexts = {
  sys_basic: systemBasicZh,
  sys_portal: systemPortalZh,
  sys_user: systemUsersZh,
  sys_alerts: systemAlertsZh,
  sys_trust: systemTrustZh,
  sys_areas: commonAreasZh,
  sys_config: configBackupZh,
  web: websiteZh,
  sys_reg: systemRegZh,
  sys_shortcut: shortcutsZh,
  tamper: tamperZh,
  guard_warning: guardWarningZh,
  account: accountZh,
  proc: processZh,
  trj: trojanZh,
  audit: auditZh,
  audit_inv: auditInventoryZh,
  audit_patch: auditPatchZh,
  audit_report: auditReportZh,
  remote: remoteZh,
  cloud: cloudZh,
  dynamic: dynamicZh,
  wizard: wizardZh,
  home_update: homeUpdateZh,
};

export default zhCNPages;
