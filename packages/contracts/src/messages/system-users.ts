/** Server messages of the user tab: panel accounts and online terminals. */
const zh = {
  user_added: '账号已添加',
  user_deleted: '账号已删除',
  user_not_found: '账号不存在',
  user_name_taken: '存在重复项：账号 {name} 已存在（账号名不区分大小写）',
  user_role_invalid: '请选择角色：管理员、技术员、审计员或其他',
  user_status_invalid: '状态须为启用或禁用',
  user_self_delete: '不能删除当前登录的账号',
  user_self_disable: '不能禁用当前登录的账号',
  user_self_demote: '不能取消当前登录账号的管理员角色',
  user_last_admin: '至少要保留一个启用的管理员账号',
  user_session_not_found: '该终端已不在线',
  user_session_ended: '已将该终端强制下线',
} as const;

const en: Record<keyof typeof zh, string> = {
  user_added: 'Account added',
  user_deleted: 'Account deleted',
  user_not_found: 'The account does not exist',
  user_name_taken: 'Has duplicates: an account named {name} already exists (names ignore case)',
  user_role_invalid: 'Choose a role: administrator, technician, auditor or other',
  user_status_invalid: 'The status is enabled or disabled',
  user_self_delete: 'You cannot delete the account you are signed in with',
  user_self_disable: 'You cannot disable the account you are signed in with',
  user_self_demote: 'You cannot take the administrator role away from the account you are signed in with',
  user_last_admin: 'At least one enabled administrator account must remain',
  user_session_not_found: 'This terminal is no longer online',
  user_session_ended: 'The terminal was signed out',
};

export const systemUsersMessages = { zh, en };
