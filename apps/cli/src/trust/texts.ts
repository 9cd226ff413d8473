import type { Language } from '@rampart/contracts';

/*
 * The words of `rampart trust` in both languages. The other commands are administrator tools run on
 * the server and speak English; this one is run by any account on its own computer, like the /trust
 * page (apps/web/src/trust/texts.ts, whose wording it follows). The server's own messages (wrong
 * password, shared address, ended terminal) come translated in the envelope: the command asks for
 * them in its language with `accept-language`.
 */

const zh = {
  usage: `用法：
  rampart trust --url 面板地址 --user 账号 [--password-file 文件] [--keep 0|1|8|24]
                [--accept-proxy] [--insecure] [--ca 文件] [--lang zh-CN|en-US]

信任终端：运行期间，让本机的公网地址留在服务器的超级白名单中（每隔几十秒心跳一次），
服务器自己的防护就不会拦截你。按 Ctrl+C 停止信任并结束终端。

  --url            面板地址，如 https://203.0.113.5:8888；面板设置了安全入口时，
                   带上入口：https://203.0.113.5:8888/入口
  --user           账号（任何角色都可以，"其他" 角色的账号只能这样登录）
  --password-file  从文件的第一行读取密码；不给时在终端输入（不回显）
  --keep           至少信任多少小时（即使终端停止）：0 = 仅在运行期间（默认），1、8 或 24
  --accept-proxy   地址看起来是共用的（经过代理，或其他账号的终端也在用）时仍然信任它
  --insecure       不验证面板的 HTTPS 证书（自签名证书）：任何人都可能冒充面板，慎用
  --ca             用这个 PEM 文件中的证书验证面板的 HTTPS 证书
  --lang           提示语言（默认取自 LANG 环境变量）
`,
  insecure: '警告：--insecure 已关闭 HTTPS 证书验证。网络上的任何人都可以冒充面板并截获你的密码和终端。请尽量改用 --ca 指定面板的证书。',
  plain_http: '提醒：面板地址是 http://，密码和终端令牌会以明文经过网络。面板开启 HTTPS 后请改用 https://。',
  keep_invalid: '--keep 只能是 0、1、8 或 24',
  lang_invalid: '--lang 只能是 zh-CN 或 en-US',
  url_invalid: '面板地址无效：{url}（应为 http://主机:端口 或 https://主机:端口[/安全入口]）',
  ca_unreadable: '无法读取证书文件 {file}：{error}',
  password_file_unreadable: '无法读取密码文件 {file}：{error}',
  password_file_empty: '密码文件 {file} 的第一行是空的',
  password_file_open: '提醒：密码文件 {file} 其他用户也能读取（chmod 600 {file}）',
  password_needs_tty: '没有终端可以输入密码（标准输入不是终端）：请用 --password-file 指定密码文件',
  password_prompt: '{user} 的密码：',
  cancelled: '已取消',
  connecting: '正在连接 {url} ……',
  entry_refused: '面板没有接受安全入口 {path}（HTTP {status}）：请检查地址',
  not_panel: '{url} 的回答不是 Rampart 面板的（HTTP {status}）：请检查地址；面板设置了安全入口时，地址要带上入口（https://主机:端口/入口）',
  offline: '无法连接面板：{error}',
  tls_failed: '无法验证面板的 HTTPS 证书（{error}）：用 --ca 指定面板的证书，或者在确认网络可信时用 --insecure',
  signed_in: '已以 {user} 登录信任终端',
  verify_title: '需要验证身份，可用的方式：',
  verify_choose: '选择验证方式 [1-{count}]：',
  verify_no_method: '面板要求验证身份，但没有给出任何验证方式',
  totp: '身份验证器（TOTP）',
  channel_sms: '短信',
  channel_email: '邮箱',
  channel_wechat: '微信',
  code_sent: '验证码已发送到 {target}，{minutes} 分钟内有效',
  code_prompt: '验证码：',
  code_tries: '验证失败次数过多，请重新运行',
  your_address: '面板看到的你的地址：{ip}',
  areas: '地区：{areas}',
  local: '这是本机地址（在服务器上运行或经 SSH 隧道连接）：信任它不会带来任何变化。',
  proxied: '你的请求经过了代理（{headers}）：这个地址可能是许多人共用的，信任它等于信任代理背后的所有人。',
  shared: '另有 {count} 个账号的信任终端使用这个地址：它是共用的。',
  accepting: '已给出 --accept-proxy：仍然信任这个地址。',
  shared_refused: '没有给出 --accept-proxy，不信任这个看起来共用的地址。',
  keep_0: '仅在终端运行期间',
  keep_n: '至少 {hours} 小时（即使终端停止）',
  keep_line: '信任时长：{keep}',
  status: '[{time}] {ip} · {state}{until}',
  until: ' · 信任至 {time}',
  state_signed_in: '已登录，尚未信任',
  state_trusted: '已信任',
  state_covered: '已在超级白名单中（手动或登录时添加），终端无需再做什么',
  state_lapsed: '信任已中断，下次心跳时恢复',
  running: '每 {seconds} 秒心跳一次；最后一次心跳 {grace} 分钟后信任结束。按 Ctrl+C 停止。',
  beat_failed: '[{time}] 心跳失败（{error}），{seconds} 秒后重试；信任在 {until} 前仍然有效',
  beat_failed_nothing: '[{time}] 心跳失败（{error}），{seconds} 秒后重试',
  restarting: '重新开始信任新地址……',
  restart_failed: '[{time}] 无法重新开始（{error}），{seconds} 秒后重试',
  ended: '信任终端已结束：{msg}',
  stopping: '正在停止信任……',
  stopped: '已停止：{msg}',
  stop_failed: '无法通知面板停止（{error}）：对该地址的信任会在最后一次心跳 {grace} 分钟后自动结束',
  unexpected: '面板的回答无法识别（{path}）',
} as const;

export type TrustTextKey = keyof typeof zh;

const en: Record<TrustTextKey, string> = {
  usage: `usage:
  rampart trust --url PANEL_URL --user ACCOUNT [--password-file FILE] [--keep 0|1|8|24]
                [--accept-proxy] [--insecure] [--ca FILE] [--lang zh-CN|en-US]

The trust terminal: while it runs, this computer's public address stays on the server's super
whitelist (it beats every few tens of seconds), so the server's own protection never blocks you.
Ctrl+C stops trusting the address and ends the terminal.

  --url            the panel, e.g. https://203.0.113.5:8888; when the panel has a safe entry,
                   include it: https://203.0.113.5:8888/ENTRY
  --user           the account (any role; accounts of role "other" can sign in only this way)
  --password-file  read the password from the first line of FILE; without it, it is typed in the
                   terminal (not echoed)
  --keep           hours the address stays trusted at least, even once the terminal stops:
                   0 = only while it runs (the default), 1, 8 or 24
  --accept-proxy   trust the address even when it looks shared (it came through a proxy, or
                   another account's terminal uses it)
  --insecure       do not verify the panel's HTTPS certificate (a self-signed one): anyone on the
                   way could pose as the panel; use with care
  --ca             verify the panel's HTTPS certificate against the certificates in this PEM FILE
  --lang           the language of the messages (by default from the LANG environment variable)
`,
  insecure: 'WARNING: --insecure turns HTTPS certificate verification off. Anyone on the network path can pose as the panel and capture your password and terminal. Prefer --ca with the panel\'s certificate.',
  plain_http: 'Note: the panel URL is http://, so the password and the terminal token cross the network in the clear. Use https:// once the panel has HTTPS on.',
  keep_invalid: '--keep is 0, 1, 8 or 24',
  lang_invalid: '--lang is zh-CN or en-US',
  url_invalid: 'Not a panel URL: {url} (expected http://host:port or https://host:port[/safe-entry])',
  ca_unreadable: 'Cannot read the certificate file {file}: {error}',
  password_file_unreadable: 'Cannot read the password file {file}: {error}',
  password_file_empty: 'The first line of the password file {file} is empty',
  password_file_open: 'Note: other users can read the password file {file} (chmod 600 {file})',
  password_needs_tty: 'No terminal to type the password in (standard input is not a terminal): give --password-file',
  password_prompt: 'Password for {user}: ',
  cancelled: 'Cancelled',
  connecting: 'Connecting to {url}…',
  entry_refused: 'The panel did not accept the safe entry {path} (HTTP {status}): check the URL',
  not_panel: 'The answer from {url} is not a Rampart panel\'s (HTTP {status}): check the URL; when the panel has a safe entry, include it (https://host:port/ENTRY)',
  offline: 'Cannot reach the panel: {error}',
  tls_failed: 'Cannot verify the panel\'s HTTPS certificate ({error}): give the panel\'s certificate with --ca, or use --insecure if you trust the network',
  signed_in: 'Signed in to the trust terminal as {user}',
  verify_title: 'Verify it is you. Methods:',
  verify_choose: 'Choose a method [1-{count}]: ',
  verify_no_method: 'The panel asks for verification but offers no method',
  totp: 'authenticator app (TOTP)',
  channel_sms: 'SMS',
  channel_email: 'e-mail',
  channel_wechat: 'WeChat',
  code_sent: 'A code was sent to {target}; it is good for {minutes} min',
  code_prompt: 'Code: ',
  code_tries: 'Too many wrong codes: run the command again',
  your_address: 'The panel sees your address as {ip}',
  areas: 'Area: {areas}',
  local: 'This is a local address (run on the server or through an SSH tunnel): trusting it changes nothing.',
  proxied: 'Your request came through a proxy ({headers}): many people may share this address, and trusting it trusts everyone behind the proxy.',
  shared: 'Trust terminals of {count} other account(s) use this address: it is shared.',
  accepting: '--accept-proxy given: trusting this address anyway.',
  shared_refused: 'Without --accept-proxy, an address that looks shared is not trusted.',
  keep_0: 'only while the terminal runs',
  keep_n: 'at least {hours} h (even once the terminal stops)',
  keep_line: 'Trust for: {keep}',
  status: '[{time}] {ip} · {state}{until}',
  until: ' · trusted until {time}',
  state_signed_in: 'signed in, not trusted yet',
  state_trusted: 'trusted',
  state_covered: 'already on the super whitelist (added by hand or at sign-in): the terminal has nothing to do',
  state_lapsed: 'trust lapsed: it comes back with the next beat',
  running: 'Beating every {seconds} s; the trust ends {grace} min after the last beat. Ctrl+C stops.',
  beat_failed: '[{time}] Beat failed ({error}); retrying in {seconds} s; the trust holds until {until}',
  beat_failed_nothing: '[{time}] Beat failed ({error}); retrying in {seconds} s',
  restarting: 'Starting again for the new address…',
  restart_failed: '[{time}] Cannot start again ({error}); retrying in {seconds} s',
  ended: 'The trust terminal has ended: {msg}',
  stopping: 'Stopping the trust…',
  stopped: 'Stopped: {msg}',
  stop_failed: 'Could not tell the panel to stop ({error}): the address stops being trusted by itself {grace} min after the last beat',
  unexpected: 'The panel\'s answer to {path} is not what was expected',
};

export type Texts = (key: TrustTextKey, params?: Record<string, string | number>) => string;

export function textsFor(lang: Language): Texts {
  const table = lang === 'en-US' ? en : zh;
  return (key, params = {}) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** `--lang`, else the locale of the environment (LC_ALL, LC_MESSAGES, LANG: zh_CN.UTF-8 → zh-CN); English otherwise. */
export function languageOf(env: NodeJS.ProcessEnv): Language {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const) {
    const value = env[name];
    if (value) return value.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
  }
  return 'en-US';
}
