import { systemBasicEn } from './parts/system-basic.ts';
import { systemPortalEn } from './parts/system-portal.ts';
import { systemUsersEn } from './parts/system-users.ts';
import { systemAlertsEn } from './parts/system-alerts.ts';
import { systemTrustEn } from './parts/system-trust.ts';
import { commonAreasEn } from './parts/common-areas.ts';
import { configBackupEn } from './parts/config-backup.ts';
import { websiteEn } from './parts/website.ts';
import { systemRegEn } from './parts/system-reg.ts';
import { shortcutsEn } from './parts/shortcuts.ts';
import { tamperEn, guardWarningEn } from './parts/tamper.ts';
import { accountEn } from './parts/account.ts';
import { processEn } from './parts/process.ts';
import { trojanEn } from './parts/trojan.ts';
import { auditEn } from './parts/audit.ts';
import { auditInventoryEn } from './parts/audit-inventory.ts';
import { auditPatchEn } from './parts/audit-patch.ts';
import { auditReportEn } from './parts/audit-report.ts';
import { remoteEn } from './parts/remote.ts';
import { cloudEn } from './parts/cloud.ts';
import { dynamicEn } from './parts/dynamic.ts';
import { wizardEn } from './parts/wizard.ts';
import { homeUpdateEn } from './parts/home-update.ts';

/**
 * English texts of the signed-in console's pages, loaded after sign-in (the sign-in page's JavaScript
 * stays small, issue 27). zh-CN.pages.ts holds the same keys; a test fails when they drift apart.
 */
const enUSPages = {
  sys_basic: systemBasicEn,
  sys_portal: systemPortalEn,
  sys_user: systemUsersEn,
  sys_alerts: systemAlertsEn,
  sys_trust: systemTrustEn,
  sys_areas: commonAreasEn,
  sys_config: configBackupEn,
  web: websiteEn,
  sys_reg: systemRegEn,
  sys_shortcut: shortcutsEn,
  tamper: tamperEn,
  guard_warning: guardWarningEn,
  account: accountEn,
  proc: processEn,
  trj: trojanEn,
  audit: auditEn,
  audit_inv: auditInventoryEn,
  audit_patch: auditPatchEn,
  audit_report: auditReportEn,
  remote: remoteEn,
  cloud: cloudEn,
  dynamic: dynamicEn,
  wizard: wizardEn,
  home_update: homeUpdateEn,
} as const;

export default enUSPages;
