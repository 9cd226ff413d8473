/** Server messages of user protection (`account_`). */
const zh = {
  account_group_invalid: '组名格式有误',
  account_unlock_minutes: '解锁时长为 1 到 1440 分钟',
  account_settings_saved: '用户防护设置已保存',
  account_unlocked: '系统账户文件已解锁 {minutes} 分钟，到时自动重新锁定',
  account_relocked: '系统账户文件已重新锁定',
  account_not_locked: '当前没有锁定任何账户文件，无需解锁',
  account_not_unlocked: '当前未处于临时解锁状态',
  account_module_off: '用户防护未开启',
  account_fanotify_rename: '当前内核使用 fanotify 后备机制：以写方式打开账户文件会被拦截（useradd 等会先这样打开，因此被阻止），但“写副本再改名覆盖”的程序无法阻止',
  account_no_backend: '防护引擎未运行，账户文件未被锁定',
  account_root_login_disabled: '已禁止 root 直接 SSH 登录',
  account_root_login_restored: '已撤销对 root 直接 SSH 登录的禁止',
  account_root_login_no_fallback: '没有其他可登录的 sudo 账户（需设置密码或 authorized_keys），禁止 root 登录可能导致无法远程管理，已拒绝',
  account_root_login_sshd_missing: '未找到 sshd，无法修改 SSH 登录设置',
  account_root_login_sshd_invalid: 'sshd 配置检查未通过（sshd -t），已撤回修改：{reason}',
  account_root_login_reload_failed: 'sshd 重新加载失败，已撤回修改：{reason}',
  account_root_login_unchanged: 'SSH 登录设置无需修改',
  account_root_login_overridden: '其他 SSH 配置优先于 Rampart 的设置，已撤回修改：{reason}',
} as const;

const en: Record<keyof typeof zh, string> = {
  account_group_invalid: 'Invalid group name',
  account_unlock_minutes: 'Unlock for 1 to 1440 minutes',
  account_settings_saved: 'User protection settings saved',
  account_unlocked: 'The account files are unlocked for {minutes} min and lock again by themselves',
  account_relocked: 'The account files are locked again',
  account_not_locked: 'No account file is locked; there is nothing to unlock',
  account_not_unlocked: 'The account files are not unlocked',
  account_module_off: 'User protection is off',
  account_fanotify_rename: 'This kernel runs the fanotify fallback: opening an account file for writing is denied (useradd does that first, so it is stopped), but a program that writes a copy and renames it over the file is NOT stopped',
  account_no_backend: 'The guard is not running: the account files are not locked',
  account_root_login_disabled: 'Direct root SSH login is disabled',
  account_root_login_restored: 'The ban on direct root SSH login is reverted',
  account_root_login_no_fallback: 'Refused: no other sudo account can sign in (it needs a password or authorized_keys); disabling root login could lock you out',
  account_root_login_sshd_missing: 'sshd was not found; the SSH login setting cannot be changed',
  account_root_login_sshd_invalid: 'sshd rejected the configuration (sshd -t); the change was taken back: {reason}',
  account_root_login_reload_failed: 'sshd could not be reloaded; the change was taken back: {reason}',
  account_root_login_unchanged: 'Nothing to change in the SSH login setting',
  account_root_login_overridden: 'Another SSH setting wins over Rampart\'s; the change was taken back: {reason}',
};

export const accountMessages = { zh, en };
