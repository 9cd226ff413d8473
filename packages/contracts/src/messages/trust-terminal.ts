/** Server messages of the trust terminal (`terminal_`). */
const zh = {
  login_terminal_only: '该账号只能通过信任终端登录：请打开本面板的 /trust',
  terminal_keep_invalid: '请选择信任时长：仅在终端运行时，或 1、8、24 小时',
  terminal_accept_invalid: '确认共享地址的选项有误',
  terminal_token_invalid: '信任终端未登录或已结束，请重新登录',
  terminal_ended: '该信任终端已结束，请重新登录',
  terminal_proxy_confirm: '你的请求经过了代理（{headers}）：信任这个地址等于信任代理背后的所有人。确认后再开始',
  terminal_shared_confirm: '另有 {count} 个账号的信任终端使用这个地址：它是共用的，信任它等于信任共用它的所有人。确认后再开始',
  terminal_address_changed: '你的地址已从 {old} 变为 {ip}：对旧地址的信任已结束，请重新开始',
  terminal_not_found: '该信任终端不存在，可能已结束',
  terminal_started: '已开始信任 {ip}',
  terminal_stopped: '已停止信任，终端已结束',
  terminal_ended_by_admin: '已结束该信任终端',
} as const;

const en: Record<keyof typeof zh, string> = {
  login_terminal_only: 'This account signs in only through the trust terminal: open /trust on this panel',
  terminal_keep_invalid: 'Choose how long to trust: only while the terminal runs, or 1, 8 or 24 hours',
  terminal_accept_invalid: 'The confirmation for a shared address is not valid',
  terminal_token_invalid: 'This trust terminal is not signed in or has ended: sign in again',
  terminal_ended: 'This trust terminal has ended: sign in again',
  terminal_proxy_confirm: 'Your request came through a proxy ({headers}): trusting this address trusts everyone behind the proxy. Confirm to start',
  terminal_shared_confirm: 'Trust terminals of {count} other account(s) use this address: it is shared, and trusting it trusts everyone who shares it. Confirm to start',
  terminal_address_changed: 'Your address changed from {old} to {ip}: the old one is no longer trusted. Start again',
  terminal_not_found: 'No such trust terminal: it may have ended',
  terminal_started: 'Now trusting {ip}',
  terminal_stopped: 'Trust stopped and the terminal ended',
  terminal_ended_by_admin: 'The trust terminal was ended',
};

export const trustTerminalMessages = { zh, en };
