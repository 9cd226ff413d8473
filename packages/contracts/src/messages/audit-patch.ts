/** The audit's patch tab's server messages (`audit_patch_`): refusals, apt's failures, started and saved. */
const zh = {
  audit_patch_not_available: '此代理未配置软件包管理（apt），无法检查补丁',
  audit_patch_locked: '另一个软件包管理程序（apt 或 dpkg）正在运行，请稍候再试',
  audit_patch_needs_root: '代理未以 root 身份运行，无法使用 apt 管理补丁',
  audit_patch_nothing_selected: '请选择需要处理的补丁',
  audit_patch_unknown_package: '该软件包不在待更新列表中：{name}',
  audit_patch_no_check: '请先检查补丁',
  audit_patch_time_invalid: '时间格式应为 HH:MM（24 小时制）',
  audit_patch_check_failed: '检查补丁失败：{error}',
  audit_patch_download_failed: '下载失败：{error}',
  audit_patch_install_failed: '安装失败：{error}',
  audit_patch_not_downloaded: '下载结束，但缓存中没有该软件包',
  audit_patch_still_pending: '安装结束，但该软件包仍待更新',
  audit_patch_interrupted: '代理在执行期间停止，操作未完成',
  audit_patch_check_started: '已开始检查补丁',
  audit_patch_download_started: '已开始下载补丁',
  audit_patch_install_started: '已开始安装补丁，完成后建议重启服务器',
  audit_patch_settings_saved: '自动更新设置已保存',
} as const;

const en: Record<keyof typeof zh, string> = {
  audit_patch_not_available: 'This agent has no package manager (apt) configured; no patch check can run',
  audit_patch_locked: 'Another package manager (apt or dpkg) is running; please wait and try again',
  audit_patch_needs_root: 'The agent is not running as root, so apt cannot manage patches',
  audit_patch_nothing_selected: 'Select the patches to process',
  audit_patch_unknown_package: 'This package is not in the list of pending updates: {name}',
  audit_patch_no_check: 'Check for patches first',
  audit_patch_time_invalid: 'The time must be HH:MM (24-hour)',
  audit_patch_check_failed: 'The patch check failed: {error}',
  audit_patch_download_failed: 'Download failed: {error}',
  audit_patch_install_failed: 'Install failed: {error}',
  audit_patch_not_downloaded: 'The download ended but the package is not in the cache',
  audit_patch_still_pending: 'The install ended but the package is still pending',
  audit_patch_interrupted: 'The agent stopped while this ran; it did not finish',
  audit_patch_check_started: 'Patch check started',
  audit_patch_download_started: 'Download started',
  audit_patch_install_started: 'Install started; a reboot of the server is suggested when it finishes',
  audit_patch_settings_saved: 'Auto update settings saved',
};

export const auditPatchMessages = { zh, en } as const;
export type AuditPatchMessageKey = keyof typeof zh;
