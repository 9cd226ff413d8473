/**
 * File inclusion: stream wrappers that read or execute (php://filter, php://input, expect://,
 * phar://, zip://, data://, file://…), remote URLs shaped for inclusion (the trailing "?" or NUL
 * that cuts off the extension the application appends, or a URL in a parameter whose name says
 * "include me"), and null-byte truncation ("../../etc/passwd\0.jpg", "shell.php%00.png").
 *
 * A data: URI for an image (rich-text editors post them) passes; data:text/plain and data:… with a
 * PHP payload are inclusion. `name` is the parameter name when the pipeline passes it; `context`
 * its Host, against which a URL parameter is judged (off-site.ts).
 */
import type { DetectorContext, DetectorHit, InputLocation } from '../../types.ts';
import { judgeOffSite } from './off-site.ts';

/** Wrappers that no legitimate parameter starts with, wherever they appear. */
const dangerousWrappers = ['php://', 'expect://', 'phar://', 'zip://', 'compress.zlib://', 'compress.bzip2://', 'glob://', 'ogg://', 'rar://', 'ssh2.shell://', 'ssh2.exec://'];
/** Wrappers that count at the start of a value only. */
const leadingWrappers = ['file://', 'netdoc:', 'jar:file:', 'jar:http', 'gopher://', 'dict://', 'ldap://', 'tftp://', 'url:file:', 'local_file:'];
/** Parameter names applications pass to include()/require()/readfile(), whole or as the last part (_CONF[path], mosConfig_absolute_path). */
const includeNameParts = /(?:^|[_[.])(?:path|file|include|inc|dir|root|template|tpl|page)\]?$/i;
/**
 * Names of a base path the application prepends to its own includes (`include $mosConfig_absolute_path
 * . '/x.php'`): the RFI classics (Mambo, phpBB, Gallery, GeekLog's _CONF[path]). A URL there is an
 * inclusion whatever it ends with.
 */
const basePathNames = /(?:absolute_path|root_path|rootpath|base_?dir|basepath|include_path|appserv_root|_conf\[path\]|\[path\]|_root_dir)$/i;
/** Parameter names applications pass to include()/require()/readfile(). */
const includeNames = /^(?:file|filename|page|include|inc|incl|require|template|tpl|path|doc|document|folder|root|pg|style|lang|language|view|layout|mod|module|conf|config|dir|show|nav|load|read|cat|prefix)$/i;
/**
 * Of those, the names that also mean "the page the visitor is on" (`page`, `view`, `doc`): every
 * analytics, replay and chat beacon sends `page: "https://…"`. There the name alone is no evidence;
 * the URL must have an include's shape (a script or text file, a trailing `?`, an IP host).
 */
const pageNames = /^(?:page|pg|view|show|nav|doc|document)$/i;

/** Where a value is a parameter an application reads as a URL (not a cookie, header or path). */
const parameterLocations: ReadonlySet<InputLocation> = new Set(['query', 'body', 'xml']);

export function detectFileInclusion(value: string, location: InputLocation, name?: string, context?: DetectorContext): DetectorHit | null {
  try {
    return detect(value, location, name, context);
  } catch {
    return null;
  }
}

function detect(value: string, location: InputLocation, name?: string, context?: DetectorContext): DetectorHit | null {
  if (!value.includes(':') && !value.includes('\u0000') && !value.toLowerCase().includes('%00')) return null;
  const lower = value.trimStart().toLowerCase().slice(0, 4096);

  for (const w of dangerousWrappers) {
    const at = lower.indexOf(w);
    if (at >= 0) return hit('inclusion.stream_wrapper', value.trimStart().slice(at, at + 120), 2);
  }
  for (const w of leadingWrappers) {
    if (lower.startsWith(w)) return hit('inclusion.stream_wrapper', value.trimStart(), 2);
  }
  if (lower.startsWith('data:')) {
    const dataHit = judgeDataUri(lower);
    if (dataHit) return hit('inclusion.data_uri', value.trimStart(), dataHit);
  }
  // (Not in headers: no application includes a header as a file name, a server does not
  // percent-decode one, and a raw NUL there is the protocol checks' to judge.)
  const nul = findNullByte(lower);
  if (nul >= 0 && location !== 'file_content' && location !== 'raw_body' && location !== 'header') {
    // A NUL right after something file-like: the classic extension cut-off.
    const before = lower.slice(Math.max(0, nul - 40), nul);
    const fileLike = /\.[a-z0-9]{1,5}$|\/[a-z0-9._-]+$|passwd$|\.\.\/?$/.test(before);
    return hit('inclusion.null_byte', value.slice(Math.max(0, nul - 40), nul + 20), fileLike ? 2 : 1);
  }
  if (/^(?:https?|ftps?):\/\//.test(lower) && location !== 'header' && location !== 'path') {
    // "http://trusted.example%2f@evil.example/": an encoded separator before '@' makes the trusted
    // name userinfo for one URL parser and a host for another (allow-list and redirect bypass).
    if (/^[a-z]+:\/\/[^/?#@\s]*(?:%2f|%5c|\\)[^/?#\s]*@/.test(lower)) return hit('inclusion.deceptive_url', value.trimStart(), 2);
    return judgeRemoteUrl(lower, value, location, name, context);
  }
  return null;
}

/** data:text/plain;base64,… or data:… carrying `<?php`: a payload for include(). Images pass. */
function judgeDataUri(lower: string): 1 | 2 | null {
  if (lower.startsWith('data://')) return 2;
  const comma = lower.indexOf(',');
  const type = lower.slice(5, comma < 0 ? 64 : comma);
  if (/^(?:image|audio|video|font)\//.test(type)) return null;
  if (type.includes('php') || lower.includes('<?')) return 2;
  if (type.startsWith('text/plain') || type.startsWith('application/x-httpd')) return type.includes('base64') ? 2 : 1;
  return null;
}

function judgeRemoteUrl(lower: string, value: string, location: InputLocation, name?: string, context?: DetectorContext): DetectorHit | null {
  const evidence = value.trimStart();
  // http://evil/shell.txt? : the "?" turns the appended ".php" into a query string.
  if (/\?$|\?\s*$|%3f$/.test(lower)) return hit('inclusion.remote_url', evidence, 2);
  const host = /^[a-z]+:\/\/([^/?#:]+)/.exec(lower)?.[1] ?? '';
  if (name !== undefined && basePathNames.test(name)) return hit('inclusion.remote_url', evidence, 2);
  let byName: 1 | 2 | null = null;
  if (name !== undefined && (includeNames.test(name) || includeNameParts.test(name))) {
    byName = /\.(?:txt|php\d?|phtml|jpg|gif|png|sh|pl|py)(?:$|[?#])/.test(lower) ? 2 : 1;
    if (byName === 2) return hit('inclusion.remote_url', evidence, 2);
    if (pageNames.test(leafOf(name)) || isSameSite(host, context)) byName = null;
  }
  // A script or text file served from a bare IP address (v4 or a v6 literal): the usual shape of an
  // RFI payload; links people share name hosts.
  const ipHost = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || /^[a-z]+:\/\/\[?[0-9a-f]{1,4}:[0-9a-f]{0,4}:[0-9a-f:]*\]?\//.test(lower);
  if (ipHost && /\.(?:txt|php\d?|sh|pl|py|jsp|asp)(?:$|[?#])/.test(lower)) return hit('inclusion.remote_url', evidence, 2);
  // Judged against the request's Host (off-site.ts); a clear finding there outranks the name's hint.
  const offSite = parameterLocations.has(location) ? judgeOffSite(lower.trimEnd(), context, name) : null;
  if (offSite !== null && (offSite.severity === 2 || byName === null)) return hit(offSite.rule, evidence, offSite.severity);
  return byName === null ? null : hit('inclusion.remote_url', evidence, byName);
}

/** `props.page`, `event[page]`: the last part of a nested name. */
function leafOf(name: string): string {
  return /([^.[\]]+)\]?$/.exec(name)?.[1] ?? name;
}

/** The URL names this site (same registrable domain): a page of its own, not a remote file. */
function isSameSite(host: string, context: DetectorContext | undefined): boolean {
  const own = context?.host?.replace(/:\d+$/, '').replace(/\.$/, '');
  if (!own || host === '') return false;
  const site = (h: string) => h.split('.').slice(-2).join('.');
  return host === own || site(host) === site(own);
}

function findNullByte(lower: string): number {
  const raw = lower.indexOf('\u0000');
  if (raw >= 0) return raw;
  const encoded = lower.indexOf('%00');
  return encoded;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'file_inclusion', rule, evidence: evidence.slice(0, 120), severity };
}
