import { translate, type Language, type MessageKey, type ShortcutAction } from '@rampart/contracts';

type Params = Record<string, string | number>;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/** A small self-contained page: no script (the console's CSP allows none inline), inline styles only. */
function layout(lang: Language, body: string): string {
  const title = escapeHtml(translate(lang, 'sc_page_title'));
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>
body{font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f0f2f5;margin:0;padding:24px;color:#1f1f1f}
main{max-width:420px;margin:10vh auto 0;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:16px;color:#008388;margin:0 0 16px}
p{line-height:1.6}
.q{font-size:20px;font-weight:600}
.hint{color:#666;font-size:13px}
button{width:100%;padding:12px;font-size:16px;border:0;border-radius:6px;background:#008388;color:#fff;cursor:pointer}
</style>
</head>
<body><main><h1>${title}</h1>
${body}
</main></body>
</html>
`;
}

const text = (lang: Language, key: MessageKey, params?: Params) => escapeHtml(translate(lang, key, params));

const confirmKeys: Record<ShortcutAction['operation'], MessageKey> = {
  pause_protection: 'sc_page_confirm_pause_protection',
  resume_protection: 'sc_page_confirm_resume_protection',
  unblock_ip: 'sc_page_confirm_unblock_ip',
  restart_panel: 'sc_page_confirm_restart_panel',
};

/** The question and the one button that runs it (a form POST to the same link). */
export function confirmPage(lang: Language, name: string, action: ShortcutAction, clientIp: string): string {
  const params: Params = { ...('minutes' in action ? { minutes: action.minutes } : {}), ...('ip' in action ? { ip: action.ip } : {}) };
  return layout(lang, `<p data-testid="shortcut-name"><strong>${escapeHtml(name)}</strong></p>
<p class="q" data-testid="shortcut-question">${text(lang, confirmKeys[action.operation], params)}</p>
<form method="post"><input type="hidden" name="confirm" value="1">
<button type="submit" data-testid="shortcut-run">${text(lang, 'sc_page_run')}</button></form>
<p class="hint">${text(lang, 'sc_page_hint', { ip: clientIp })}</p>`);
}

export function resultPage(lang: Language, name: string, ok: boolean, msg: MessageKey, params: Params): string {
  const line = ok ? text(lang, msg, params) : text(lang, 'sc_page_failed', { reason: translate(lang, msg, params) });
  return layout(lang, `<p data-testid="shortcut-name"><strong>${escapeHtml(name)}</strong></p>
<p class="q" data-testid="shortcut-result" data-ok="${ok ? '1' : '0'}">${line}</p>`);
}

/** The one answer for an unknown, disabled, expired, used-up or deleted link: nothing tells them apart. */
export function notFoundPage(lang: Language): string {
  return layout(lang, `<p data-testid="shortcut-not-found">${text(lang, 'sc_page_not_found')}</p>`);
}
