import {
  loginChallengeSchema, loginResultSchema, terminalAddressSchema, terminalStatusSchema, totpObjectId,
  type Language, type LoginChallenge, type TerminalStatus, type terminalKeepHours,
} from '@rampart/contracts';
import type { Answer, Failure, PanelClient } from './panel-client.ts';
import { readLine } from './prompt.ts';
import type { Texts } from './texts.ts';

/** Sign-in verification tries before the panel voids the ticket (apps/console/src/sign-in/tickets.ts). */
const maxCodeTries = 5;
/** How long a stop on the way out may take before the command gives up on it. */
const stopWaitMs = 10_000;

export interface TrustOptions {
  url: URL;
  user: string;
  keep: (typeof terminalKeepHours)[number];
  acceptProxy: boolean;
  lang: Language;
}

type Outcome = { status: TerminalStatus } | { exit: number } | { retry: string };

/** Local time, to the second: 2026-12-06 12:03:31. */
function clock(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A sleep that a signal cuts short. */
class StopSignal {
  requested = false;
  #wake: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    if (this.requested) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  request(): void {
    this.requested = true;
    this.#wake?.();
  }
}

/** One run of the trust terminal: sign in, start, beat until a signal, stop (commands/trust.ts). */
export class TrustTerminal {
  readonly #panel: PanelClient;
  readonly #options: TrustOptions;
  readonly #t: Texts;
  readonly #stop = new StopSignal();
  #last: TerminalStatus | undefined;

  constructor(panel: PanelClient, options: TrustOptions, t: Texts) {
    this.#panel = panel;
    this.#options = options;
    this.#t = t;
  }

  #out(line: string): void {
    process.stdout.write(`${line}\n`);
  }

  #err(line: string): void {
    process.stderr.write(`${line}\n`);
  }

  /** Why a call did not succeed, in words. */
  #why(answer: Failure, path: string): string {
    const t = this.#t;
    switch (answer.kind) {
      case 'refused':
      case 'ended':
        return answer.msg || t('unexpected', { path });
      case 'offline':
        return t('offline', { error: answer.error });
      case 'tls':
        return t('tls_failed', { error: answer.error });
      case 'foreign':
        return t('not_panel', { url: `${this.#panel.origin}${this.#panel.entryPath}`, status: answer.status });
    }
  }

  async run(password: string): Promise<number> {
    const t = this.#t;
    // Until there is a terminal to stop, a signal just ends the command.
    const early = () => process.exit(130);
    process.on('SIGINT', early).on('SIGTERM', early).on('SIGHUP', early);

    this.#err(t('connecting', { url: this.#panel.origin }));
    const entered = await this.#panel.enter();
    if (entered) {
      this.#err(entered.kind === 'foreign' ? t('entry_refused', { path: this.#panel.entryPath, status: entered.status }) : this.#why(entered, this.#panel.entryPath));
      return 1;
    }
    const signedIn = await this.#signIn(password);
    if (typeof signedIn === 'number') return signedIn;
    this.#panel.token = signedIn;
    this.#out(t('signed_in', { user: this.#options.user }));

    const onSignal = () => {
      if (this.#stop.requested) process.exit(130);
      this.#stop.request();
    };
    process.off('SIGINT', early).off('SIGTERM', early).off('SIGHUP', early);
    process.on('SIGINT', onSignal).on('SIGTERM', onSignal).on('SIGHUP', onSignal);

    const first = await this.#start(true);
    if ('exit' in first) return first.exit;
    if ('retry' in first) return this.#failed(first.retry);
    this.#out(t('running', { seconds: first.status.beat_seconds, grace: Math.round(first.status.grace_seconds / 60) }));
    return this.#beat(first.status);
  }

  /** A failure after signing in: the terminal is ended on the panel too (best effort), then the command. */
  async #failed(message: string): Promise<number> {
    this.#err(message);
    await this.#callStop();
    return 1;
  }

  /** POST /terminal/stop, waiting no longer than stopWaitMs for it. */
  #callStop(): Promise<Answer<unknown>> {
    const timeout = new Promise<Failure>((resolve) => setTimeout(() => resolve({ kind: 'offline', error: `${stopWaitMs / 1000} s` }), stopWaitMs).unref());
    return Promise.race([this.#panel.call<unknown>('POST', '/terminal/stop'), timeout]);
  }

  /** POST /login as a terminal, then the verification when the panel asks: the token, or an exit code. */
  async #signIn(password: string): Promise<string | number> {
    const path = '/login';
    const answer = await this.#panel.call<unknown>('POST', path, { username: this.#options.user, password, client: 'terminal' });
    if (answer.kind !== 'ok') {
      this.#err(this.#why(answer, path));
      return 1;
    }
    const challenge = loginChallengeSchema.safeParse(answer.data);
    if (challenge.success) return this.#verify(challenge.data);
    const result = loginResultSchema.safeParse(answer.data);
    if (!result.success) {
      this.#err(this.#t('unexpected', { path }));
      return 1;
    }
    return result.data.token;
  }

  async #verify(challenge: LoginChallenge): Promise<string | number> {
    const t = this.#t;
    const channelName = (channel: string) =>
      channel === 'sms' ? t('channel_sms') : channel === 'email' ? t('channel_email') : channel === 'wechat' ? t('channel_wechat') : channel;
    const methods = [
      ...challenge.objects.map((o) => ({ id: o.id, label: `${channelName(o.channel)} ${o.masked}` })),
      ...(challenge.totp ? [{ id: totpObjectId, label: t('totp') }] : []),
    ];
    if (methods.length === 0) {
      this.#err(t('verify_no_method'));
      return 1;
    }
    this.#err(t('verify_title'));
    methods.forEach((m, i) => this.#err(`  ${i + 1}) ${m.label}`));
    let method = methods.length === 1 ? methods[0] : undefined;
    while (!method) {
      const picked = await readLine(t('verify_choose', { count: methods.length }));
      if (picked === null) {
        this.#err(t('cancelled'));
        return 1;
      }
      method = methods[Number(picked.trim()) - 1];
    }
    if (method.id !== totpObjectId) {
      const sent = await this.#panel.call<{ expires_in: number }>('POST', '/login/code', { ticket: challenge.ticket, object: method.id });
      if (sent.kind !== 'ok') {
        this.#err(this.#why(sent, '/login/code'));
        return 1;
      }
      this.#err(t('code_sent', { target: method.label, minutes: Math.round((sent.data?.expires_in ?? 300) / 60) }));
    }
    for (let i = 0; i < maxCodeTries; i++) {
      const code = await readLine(t('code_prompt'));
      if (code === null) {
        this.#err(t('cancelled'));
        return 1;
      }
      const answer = await this.#panel.call<unknown>('POST', '/login/verify', { ticket: challenge.ticket, object: method.id, code: code.trim() });
      if (answer.kind === 'ok') {
        const result = loginResultSchema.safeParse(answer.data);
        if (result.success) return result.data.token;
        this.#err(t('unexpected', { path: '/login/verify' }));
        return 1;
      }
      this.#err(this.#why(answer, '/login/verify'));
      if (answer.kind !== 'refused') return 1;
    }
    this.#err(t('code_tries'));
    return 1;
  }

  /**
   * The address the panel sees, then POST /terminal/start. At first any failure ends the command;
   * after an address change a panel out of reach is retried (`retry`), a refusal still ends it.
   */
  async #start(first: boolean): Promise<Outcome> {
    const t = this.#t;
    const seen = await this.#panel.call<unknown>('GET', '/terminal/address');
    if (seen.kind === 'ended') return { exit: this.#ended(seen.msg) };
    if (seen.kind !== 'ok') return first || seen.kind === 'refused' ? { exit: await this.#failed(this.#why(seen, '/terminal/address')) } : { retry: this.#why(seen, '/terminal/address') };
    const parsed = terminalAddressSchema.safeParse(seen.data);
    if (!parsed.success) return { exit: await this.#failed(t('unexpected', { path: '/terminal/address' })) };
    const address = parsed.data;
    this.#out(t('your_address', { ip: address.ip }));
    if (address.areas.length > 0) this.#out(t('areas', { areas: address.areas.join(' · ') }));
    if (address.local) this.#out(t('local'));
    if (address.proxy_headers.length > 0) this.#err(t('proxied', { headers: address.proxy_headers.join(', ') }));
    if (address.shared_with > 0) this.#err(t('shared', { count: address.shared_with }));
    const looksShared = address.proxy_headers.length > 0 || address.shared_with > 0;
    if (looksShared && this.#options.acceptProxy) this.#err(t('accepting'));

    // The panel decides whether the address is shared (it may have changed since): its refusal is the message shown.
    const started = await this.#panel.call<unknown>('POST', '/terminal/start', { keep_hours: this.#options.keep, accept_proxy: this.#options.acceptProxy });
    if (started.kind === 'ended') return { exit: this.#ended(started.msg) };
    if (started.kind === 'refused') {
      const hint = looksShared && !this.#options.acceptProxy ? `\n${t('shared_refused')}` : '';
      return { exit: await this.#failed(`${this.#why(started, '/terminal/start')}${hint}`) };
    }
    if (started.kind !== 'ok') return first ? { exit: await this.#failed(this.#why(started, '/terminal/start')) } : { retry: this.#why(started, '/terminal/start') };
    const status = terminalStatusSchema.safeParse(started.data);
    if (!status.success) return { exit: await this.#failed(t('unexpected', { path: '/terminal/start' })) };
    if (started.msg) this.#out(started.msg);
    this.#out(t('keep_line', { keep: this.#options.keep === 0 ? t('keep_0') : t('keep_n', { hours: this.#options.keep }) }));
    this.#status(status.data);
    return { status: status.data };
  }

  #status(status: TerminalStatus): void {
    const t = this.#t;
    this.#last = status;
    const until = status.trusted_until !== null ? t('until', { time: clock(status.trusted_until) }) : '';
    this.#out(t('status', { time: clock(Date.now()), ip: status.ip, state: t(`state_${status.state}`), until }));
  }

  #ended(msg: string): number {
    this.#err(this.#t('ended', { msg }));
    return 1;
  }

  /** Seconds between beats: the panel's, or fewer when RAMPART_TRUST_BEAT_SECONDS asks. */
  #interval(status: TerminalStatus): number {
    const asked = Number(process.env.RAMPART_TRUST_BEAT_SECONDS);
    return Number.isInteger(asked) && asked >= 1 && asked < status.beat_seconds ? asked : status.beat_seconds;
  }

  async #beat(started: TerminalStatus): Promise<number> {
    const t = this.#t;
    let status = started;
    let startAgain = false;
    while (!this.#stop.requested) {
      const seconds = this.#interval(status);
      await this.#stop.sleep(seconds * 1000);
      if (this.#stop.requested) break;
      const now = Date.now();
      if (startAgain) {
        const again = await this.#start(false);
        if ('exit' in again) return again.exit;
        if ('retry' in again) {
          this.#err(t('restart_failed', { time: clock(now), error: again.retry, seconds }));
          continue;
        }
        status = again.status;
        startAgain = false;
        continue;
      }
      const answer = await this.#panel.call<unknown>('POST', '/terminal/beat');
      if (answer.kind === 'ok') {
        const parsed = terminalStatusSchema.safeParse(answer.data);
        if (parsed.success) {
          status = parsed.data;
          this.#status(status);
          continue;
        }
      }
      if (answer.kind === 'ended') return this.#ended(answer.msg);
      if (answer.kind === 'refused') {
        // The address changed: the panel let the old one go; start again from the address check.
        this.#err(`[${clock(now)}] ${this.#why(answer, '/terminal/beat')}`);
        this.#err(t('restarting'));
        this.#last = undefined;
        startAgain = true;
        // At once: the new address is not trusted until it starts.
        const again = await this.#start(false);
        if ('exit' in again) return again.exit;
        if ('status' in again) {
          status = again.status;
          startAgain = false;
        } else {
          this.#err(t('restart_failed', { time: clock(now), error: again.retry, seconds }));
        }
        continue;
      }
      const error = answer.kind === 'ok' ? t('unexpected', { path: '/terminal/beat' }) : this.#why(answer, '/terminal/beat');
      const holds = this.#last?.trusted_until;
      this.#err(holds ? t('beat_failed', { time: clock(now), error, seconds, until: clock(holds) }) : t('beat_failed_nothing', { time: clock(now), error, seconds }));
    }
    return this.#stopTerminal();
  }

  /** On a signal: POST /terminal/stop (the hold ends at once), then exit 0. */
  async #stopTerminal(): Promise<number> {
    const t = this.#t;
    this.#err(t('stopping'));
    const answer = await this.#callStop();
    if (answer.kind === 'ok' || answer.kind === 'ended') this.#out(t('stopped', { msg: answer.msg }));
    else this.#err(t('stop_failed', { error: this.#why(answer, '/terminal/stop'), grace: Math.round((this.#last?.grace_seconds ?? 180) / 60) }));
    return 0;
  }
}
