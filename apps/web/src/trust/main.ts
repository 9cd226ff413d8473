import type { LoginChallenge, LoginResult, TerminalAddress, TerminalStatus } from '@rampart/contracts';
import { text, type TerminalLang, type TextKey } from './locales/texts.ts';

/*
 * The trust terminal page (/trust; contracts/trust-terminal.ts). Sign in (with the same verification
 * as the console), see the address the panel sees and whether it looks shared, start, then beat every
 * `beat_seconds` while the page stays open. Closing the page stops the beats and the trust lapses a
 * few minutes later on the server; "Stop trusting" ends it at once.
 */

const tokenKey = 'rampart.trust.token';
const langKey = 'rampart.trust.lang';
const root = document.getElementById('terminal')!;

let lang: TerminalLang = (localStorage.getItem(langKey) as TerminalLang | null) ?? (navigator.language.startsWith('zh') ? 'zh-CN' : 'en-US');
let beatTimer: number | undefined;
let redraw: () => void = () => undefined;

const t = (key: TextKey, params?: Record<string, string | number>) => text(lang, key, params);

interface Envelope<T> {
  code: number;
  msg: string;
  data?: T;
}
type Answer<T> = { kind: 'ok'; data: T; msg: string } | { kind: 'refused'; msg: string } | { kind: 'ended'; msg: string } | { kind: 'offline' };

/** One call: ok, refused (code 2 or 400 with the server's message), ended (401), or offline. */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
  const token = sessionStorage.getItem(tokenKey);
  let response: Response;
  try {
    response = await fetch(`./magapi${path}`, {
      method,
      headers: {
        'accept-language': lang,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return { kind: 'offline' };
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    return { kind: 'offline' };
  }
  if (response.status === 401) return { kind: 'ended', msg: envelope.msg };
  if (response.status >= 500) return { kind: 'offline' };
  if (response.status !== 200 || envelope.code > 1) return { kind: 'refused', msg: envelope.msg };
  return { kind: 'ok', data: envelope.data as T, msg: envelope.msg };
}

type Child = Node | string | null | undefined | false;
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}
const button = (label: string, testId: string, onClick: () => void, kind = '') => {
  const b = el('button', { type: 'button', 'data-testid': testId, ...(kind ? { class: kind } : {}) }, label);
  b.addEventListener('click', onClick);
  return b;
};
const errorLine = (message: string): HTMLElement | null => (message ? el('div', { class: 'error', 'data-testid': 'trust-error', role: 'alert' }, message) : null);
const time = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleString(lang));

function show(...children: Child[]): void {
  const switcher = button(t('language'), 'trust-language', () => {
    lang = lang === 'zh-CN' ? 'en-US' : 'zh-CN';
    localStorage.setItem(langKey, lang);
    document.documentElement.lang = lang;
    redraw();
  }, 'link');
  const shown = children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false);
  root.replaceChildren(el('header', {}, el('h1', {}, `Rampart · ${t('title')}`), switcher), ...shown);
}

function stopBeats(): void {
  if (beatTimer !== undefined) window.clearInterval(beatTimer);
  beatTimer = undefined;
}

function ended(message: string): void {
  stopBeats();
  sessionStorage.removeItem(tokenKey);
  redraw = () => ended(message);
  show(el('p', { 'data-testid': 'trust-ended' }, message || t('ended')), button(t('sign_in_again'), 'trust-again', () => signIn('')));
}

/* 1. Sign in */
function signIn(error: string, account = ''): void {
  redraw = () => signIn('', account);
  const user = el('input', { type: 'text', id: 'trust-user', 'data-testid': 'trust-user', autocomplete: 'username' });
  // A refused try keeps the account name; the password is typed again.
  user.value = account;
  const password = el('input', { type: 'password', id: 'trust-password', 'data-testid': 'trust-password', autocomplete: 'current-password' });
  const form = el('form', {},
    el('label', { for: 'trust-user' }, t('username')), user,
    el('label', { for: 'trust-password' }, t('password')), password,
    el('button', { type: 'submit', 'data-testid': 'trust-sign-in' }, t('sign_in')),
    errorLine(error));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const account = user.value.trim();
    if (!account || !password.value) return signIn(t('required'), account);
    void call<LoginResult | LoginChallenge>('POST', '/login', { username: account, password: password.value, client: 'terminal' }).then((answer) => {
      if (answer.kind === 'offline') return signIn(t('network_error'), account);
      if (answer.kind !== 'ok') return signIn(answer.msg, account);
      if ('verify' in answer.data) return verify(answer.data, '');
      signedIn(answer.data.token);
    });
  });
  show(el('p', { class: 'hint' }, t('intro')), form,
    el('p', { class: 'hint' }, t('cli'), el('br'), el('code', {}, `npx rampart trust --url ${location.origin} --user <account>`)));
}

/* 1b. Verification, when the panel's sign-in check asks for it */
function verify(challenge: LoginChallenge, error: string, note = ''): void {
  redraw = () => verify(challenge, '');
  const select = el('select', { 'data-testid': 'trust-verify-object' },
    ...challenge.objects.map((o) => el('option', { value: o.id }, `${o.channel}: ${o.masked}`)),
    challenge.totp ? el('option', { value: 'totp' }, t('totp')) : null);
  const code = el('input', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', 'data-testid': 'trust-code' });
  const send = button(t('send_code'), 'trust-send-code', () => {
    void call('POST', '/login/code', { ticket: challenge.ticket, object: select.value }).then((answer) => {
      if (answer.kind === 'ok') verify(challenge, '', t('code_sent'));
      else verify(challenge, answer.kind === 'offline' ? t('network_error') : answer.msg);
    });
  }, 'secondary');
  const submit = button(t('verify'), 'trust-verify', () => {
    void call<LoginResult>('POST', '/login/verify', { ticket: challenge.ticket, object: select.value, code: code.value }).then((answer) => {
      if (answer.kind === 'ok') return signedIn(answer.data.token);
      verify(challenge, answer.kind === 'offline' ? t('network_error') : answer.msg);
    });
  });
  show(el('p', { class: 'hint' }, t('verify_title')), el('label', {}, t('verify_object')), select, send,
    el('label', {}, t('code')), code, submit, note ? el('div', { class: 'note' }, note) : null, errorLine(error));
}

function signedIn(token: string): void {
  sessionStorage.setItem(tokenKey, token);
  void prepare('');
}

/* 2. The address the panel sees, and starting */
async function prepare(error: string): Promise<void> {
  const answer = await call<TerminalAddress>('GET', '/terminal/address');
  if (answer.kind === 'ended') return ended(answer.msg);
  if (answer.kind !== 'ok') return signIn(answer.kind === 'offline' ? t('network_error') : answer.msg);
  const address = answer.data;
  redraw = () => void prepare('');
  const looksShared = address.proxy_headers.length > 0 || address.shared_with > 0;
  const accept = el('input', { type: 'checkbox', 'data-testid': 'trust-accept' });
  const keep = el('select', { 'data-testid': 'trust-keep' }, ...([0, 1, 8, 24] as const).map((h) => el('option', { value: String(h) }, t(`keep_${h}`))));
  const start = button(t('start'), 'trust-start', () => {
    void call<TerminalStatus>('POST', '/terminal/start', { keep_hours: Number(keep.value), accept_proxy: accept.checked }).then((started) => {
      if (started.kind === 'ended') return ended(started.msg);
      if (started.kind !== 'ok') return void prepare(started.kind === 'offline' ? t('network_error') : started.msg);
      running(started.data, '');
    });
  });
  show(
    el('dl', {},
      el('dt', {}, t('your_address')), el('dd', { 'data-testid': 'trust-address' }, address.ip),
      address.areas.length > 0 ? el('dt', {}, t('areas')) : null, address.areas.length > 0 ? el('dd', {}, address.areas.join(' · ')) : null),
    address.local ? el('div', { class: 'note', 'data-testid': 'trust-local' }, t('local')) : null,
    address.proxy_headers.length > 0 ? el('div', { class: 'warn', 'data-testid': 'trust-proxied' }, t('proxied', { headers: address.proxy_headers.join(', ') })) : null,
    address.shared_with > 0 ? el('div', { class: 'warn', 'data-testid': 'trust-shared' }, t('shared', { count: address.shared_with })) : null,
    looksShared ? el('label', { class: 'check' }, accept, t('accept')) : null,
    el('label', {}, t('keep')), keep,
    start,
    errorLine(error),
  );
}

/* 3. Running: beats and the state they bring back */
function running(status: TerminalStatus, error: string): void {
  redraw = () => running(status, '');
  if (beatTimer === undefined) beatTimer = window.setInterval(() => void beat(), status.beat_seconds * 1000);
  const stop = button(t('stop'), 'trust-stop', () => {
    if (!window.confirm(t('stop_confirm'))) return;
    void call('POST', '/terminal/stop').then((answer) => ended(answer.kind === 'ok' || answer.kind === 'ended' ? answer.msg : t('ended')));
  }, 'danger');
  show(
    el('dl', {},
      el('dt', {}, t('account')), el('dd', {}, status.account),
      el('dt', {}, t('your_address')), el('dd', { 'data-testid': 'trust-address' }, status.ip),
      el('dt', {}, t('state')), el('dd', { class: `state-${status.state}`, 'data-testid': 'trust-state', 'data-state': status.state }, t(`state_${status.state}`)),
      status.trusted_until !== null ? el('dt', {}, t('trusted_until')) : null,
      status.trusted_until !== null ? el('dd', { 'data-testid': 'trust-until' }, time(status.trusted_until)) : null,
      el('dt', {}, t('last_beat')), el('dd', { 'data-testid': 'trust-last-beat' }, time(status.last_beat))),
    el('p', { class: 'hint' }, t('keep_open', { seconds: status.beat_seconds, grace: Math.round(status.grace_seconds / 60) })),
    stop,
    errorLine(error),
  );
}

async function beat(): Promise<void> {
  const answer = await call<TerminalStatus>('POST', '/terminal/beat');
  if (answer.kind === 'ok') return running(answer.data, '');
  if (answer.kind === 'ended') return ended(answer.msg);
  if (answer.kind === 'offline') {
    // Keep beating: the next one may get through before the grace runs out.
    const error = root.querySelector('[data-testid="trust-error"]');
    if (!error) root.append(errorLine(t('network_error'))!);
    return;
  }
  // Refused: the address changed. Start again from the address check (the proxy check runs anew).
  stopBeats();
  await prepare(answer.msg);
}

/** A reload keeps the terminal: the token lives in this tab's session storage. */
async function resume(): Promise<void> {
  document.documentElement.lang = lang;
  if (!sessionStorage.getItem(tokenKey)) return signIn('');
  const answer = await call<TerminalStatus>('GET', '/terminal/status');
  if (answer.kind === 'ended') return ended(answer.msg);
  if (answer.kind !== 'ok') return signIn(answer.kind === 'offline' ? t('network_error') : answer.msg);
  if (answer.data.state === 'signed_in') return prepare('');
  running(answer.data, '');
}

void resume();
