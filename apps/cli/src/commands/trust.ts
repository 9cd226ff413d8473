import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Language, languages, terminalKeepHours } from '@rampart/contracts';
import { readHidden } from '../trust/prompt.ts';
import { languageOf, textsFor, type Texts } from '../trust/texts.ts';

/*
 * `rampart trust`: the trust terminal as a command, for jump hosts and scripts (issue 28; the
 * server side is apps/console/src/routes/terminal.ts, the readings contracts/trust-terminal.ts).
 * Sign in with `client: "terminal"` (and the panel's verification when it asks), show the address
 * the panel sees and whether it looks shared, start, then beat every `beat_seconds` until a signal,
 * which stops the hold at once. A beat that does not get through is retried (the grace lets several
 * be lost); an address change starts again (the proxy check runs again); a 401 ends the command.
 *
 * RAMPART_TRUST_BEAT_SECONDS (tests, debugging) beats more often than the panel asks; never less.
 */

/*
 * contracts (and zod) load only once the arguments are good: a mistyped command answers at once.
 * These copies are checked against them.
 */
const languageIds = ['zh-CN', 'en-US'] as const satisfies typeof languages;
const keepHours = [0, 1, 8, 24] as const satisfies typeof terminalKeepHours;

export async function run(args: string[]): Promise<number> {
  let values: {
    url?: string; user?: string; 'password-file'?: string; keep?: string; 'accept-proxy'?: boolean; insecure?: boolean; ca?: string;
    lang?: string; help?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string' }, user: { type: 'string' }, 'password-file': { type: 'string' }, keep: { type: 'string' },
        'accept-proxy': { type: 'boolean' }, insecure: { type: 'boolean' }, ca: { type: 'string' }, lang: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    const t = textsFor(languageOf(process.env));
    process.stderr.write(`${(err as Error).message}\n${t('usage')}`);
    return 2;
  }
  if (values.lang !== undefined && !(languageIds as readonly string[]).includes(values.lang)) {
    const t = textsFor(languageOf(process.env));
    process.stderr.write(`${t('lang_invalid')}\n${t('usage')}`);
    return 2;
  }
  const lang = (values.lang as Language | undefined) ?? languageOf(process.env);
  const t = textsFor(lang);
  const fail = (message: string, code = 1) => {
    process.stderr.write(`${message}\n`);
    return code;
  };

  if (values.help) {
    process.stdout.write(t('usage'));
    return 0;
  }
  if (!values.url || !values.user?.trim() || positionals.length > 0) return fail(t('usage').trimEnd(), 2);
  const keep = Number(values.keep ?? '0');
  if (!(keepHours as readonly number[]).includes(keep) || !/^\d+$/.test(values.keep ?? '0')) return fail(`${t('keep_invalid')}\n${t('usage')}`.trimEnd(), 2);
  let url: URL;
  try {
    url = new URL(values.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    return fail(`${t('url_invalid', { url: values.url })}\n${t('usage')}`.trimEnd(), 2);
  }

  let ca: string | undefined;
  if (values.ca) {
    try {
      ca = readFileSync(values.ca, 'utf8');
    } catch (err) {
      return fail(t('ca_unreadable', { file: values.ca, error: (err as Error).message }));
    }
  }
  if (values.insecure) process.stderr.write(`\n!!! ${t('insecure')} !!!\n\n`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) process.stderr.write(`${t('plain_http')}\n`);

  const user = values.user.trim();
  const password = await readPassword(values['password-file'], user, t);
  if (typeof password === 'number') return password;

  const { PanelClient } = await import('../trust/panel-client.ts');
  const { TrustTerminal } = await import('../trust/session.ts');
  const panel = new PanelClient({
    url, lang, insecure: values.insecure === true, ...(ca ? { ca } : {}), userAgent: `rampart-trust-cli (Node.js ${process.version}; ${process.platform})`,
  });
  return new TrustTerminal(panel, { url, user, keep: keep as (typeof keepHours)[number], acceptProxy: values['accept-proxy'] === true, lang }, t).run(password);
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

/** The password: the first line of the file, or typed without echo; a number is the exit code. */
async function readPassword(file: string | undefined, user: string, t: Texts): Promise<string | number> {
  if (file !== undefined) {
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
      if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) process.stderr.write(`${t('password_file_open', { file })}\n`);
    } catch (err) {
      process.stderr.write(`${t('password_file_unreadable', { file, error: (err as Error).message })}\n`);
      return 1;
    }
    const first = content.split(/\r?\n/)[0] ?? '';
    if (first === '') {
      process.stderr.write(`${t('password_file_empty', { file })}\n`);
      return 1;
    }
    return first;
  }
  if (!process.stdin.isTTY) {
    process.stderr.write(`${t('password_needs_tty')}\n`);
    return 2;
  }
  for (;;) {
    const typed = await readHidden(t('password_prompt', { user }));
    if (typed === null) {
      process.stderr.write(`${t('cancelled')}\n`);
      return 130;
    }
    if (typed !== '') return typed;
  }
}
