import type { Language } from './i18n.ts';

/**
 * Every message the server sends to a user, in both languages. Keys are stable codes; the console
 * answers with the text in the caller's language. A test fails when a language misses a key.
 */
const zh = {
  ok: '操作成功',
  saved: '保存成功',
  bad_request: '请求参数有误',
  body_too_large: '请求内容过大',
  not_found: '接口不存在',
  internal_error: '服务器内部错误，请稍后重试',
  unauthorized: '登录已失效，请重新登录',
  no_permission: '该账号没有权限',
  not_registered: '软件尚未注册，请先注册',
  licence_expired: '授权已过期，请重新注册',
  rate_limited: '请求过于频繁，请稍后再试',
  login_required_fields: '请输入管理员账号和密码',
  login_failed: '账号或密码错误',
  login_failed_left: '账号或密码错误，今日还可尝试 {left} 次',
  login_locked: '登录失败次数过多，该 IP 今日已被锁定',
  account_disabled: '该账号已被禁用',
  logout_ok: '已退出登录',
  account_name_invalid: '账号须为 4-20 位字母、数字、-或_',
  password_invalid: '密码须为 6-50 位，且不能为纯字母或纯数字',
  password_old_wrong: '原密码错误',
  password_mismatch: '两次输入的新密码不一致',
  password_same: '新密码不能与原密码相同',
  password_changed: '密码修改成功，请重新登录',
  licence_code_required: '请输入授权码',
  licence_code_invalid: '授权码格式应为 AAA-BBB',
  licence_agree_required: '请同意许可协议',
  licence_unknown: '授权码不存在',
  licence_code_expired: '授权码已过期',
  licence_relocate_confirm: '该授权码已绑定其他设备，迁移到本机将消耗 1 次迁移次数（剩余 {left} 次），是否继续？',
  licence_no_transfers: '该授权码的迁移次数已用完',
  licence_authority_unreachable: '无法连接授权服务器，请检查网络后重试',
  register_failed: '软件注册失败，请检查授权账号和密码',
  register_ok: '注册成功',
  already_registered: '软件已注册',
  reg_refreshed: '授权信息已刷新',
  licence_moved: '该授权码已迁移到其他设备，请重新注册',
  module_unknown: '未知模块',
  module_switched_on: '已开启',
  module_switched_off: '已关闭',
  module_saved_agent_down: '设置已保存，但防护服务未连接，服务恢复后将自动生效',
  agent_unreachable: '防护服务未连接',
  restart_software: '软件正在重启，请稍候',
  restart_server: '服务器正在重启，请稍候',
  restart_type_invalid: '重启类型无效',
  language_changed: '语言已切换',
} as const;

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  ok: 'Done',
  saved: 'Saved',
  bad_request: 'The request is not valid',
  body_too_large: 'The request is too large',
  not_found: 'No such API',
  internal_error: 'Internal server error, please try again later',
  unauthorized: 'Your session has ended, please sign in again',
  no_permission: 'This account has no permission',
  not_registered: 'The software is not registered yet, please register first',
  licence_expired: 'The licence has expired, please register again',
  rate_limited: 'Too many requests, please try again later',
  login_required_fields: 'Please enter the admin account and password',
  login_failed: 'Wrong account or password',
  login_failed_left: 'Wrong account or password, {left} attempts left today',
  login_locked: 'Too many failed sign-ins: this IP is locked for today',
  account_disabled: 'This account is disabled',
  logout_ok: 'Signed out',
  account_name_invalid: 'Account names are 4-20 letters, digits, - or _',
  password_invalid: 'Passwords are 6-50 characters and not only letters or only digits',
  password_old_wrong: 'The old password is wrong',
  password_mismatch: 'The two new passwords do not match',
  password_same: 'The new password must differ from the old one',
  password_changed: 'Password changed, please sign in again',
  licence_code_required: 'Please enter the licence code',
  licence_code_invalid: 'Licence codes look like AAA-BBB',
  licence_agree_required: 'Please Agree to the License Agreement',
  licence_unknown: 'No such licence code',
  licence_code_expired: 'This licence code has expired',
  licence_relocate_confirm: 'This code is bound to another device. Moving it here uses 1 relocation ({left} left). Continue?',
  licence_no_transfers: 'This licence code has no relocations left',
  licence_authority_unreachable: 'Cannot reach the licence server, check the network and retry',
  register_failed: 'Software registration failed, check your authorization account and password',
  register_ok: 'Registered',
  already_registered: 'The software is already registered',
  reg_refreshed: 'Licence information refreshed',
  licence_moved: 'This licence code has moved to another device; please register again',
  module_unknown: 'Unknown module',
  module_switched_on: 'Turned on',
  module_switched_off: 'Turned off',
  module_saved_agent_down: 'Saved, but the protection service is not connected; it applies when the service is back',
  agent_unreachable: 'The protection service is not connected',
  restart_software: 'The software is restarting, please wait',
  restart_server: 'The server is rebooting, please wait',
  restart_type_invalid: 'Unknown restart type',
  language_changed: 'Language changed',
};

export const messages: Record<Language, Record<MessageKey, string>> = { 'zh-CN': zh, 'en-US': en };

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(zh, key);
}

/** The message for `key` in `lang`, with `{name}` placeholders filled. */
export function translate(lang: Language, key: MessageKey, params?: Record<string, string | number>): string {
  const text = messages[lang][key];
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text;
}
