import { createHash } from 'node:crypto';
import {
  canonicalJson, configContentSchema, configFormat, configFormatVersion, configHeadSchema, productVersion,
  isMessageKey, type ConfigContent, type ConfigFile, type MessageKey,
} from '@rampart/contracts';
import type { z } from 'zod';

export function checksumOf(content: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`;
}

/** A configuration file around `content`: marker, versions, time, device and checksum. */
export function buildConfigFile(content: ConfigContent, now: number, device: string): ConfigFile {
  return {
    format: configFormat,
    format_version: configFormatVersion,
    software_version: productVersion,
    created_at: now,
    device,
    checksum: checksumOf(content),
    content,
  };
}

export function serializeConfigFile(file: ConfigFile): string {
  return `${JSON.stringify(file, null, 1)}\n`;
}

/** Why a file is refused: a message key and what fills it. */
export interface ConfigRefusal {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** `raw`: the file as it came (its checksum is over that), to store it unchanged; `file`: checked and normalized, to apply. */
export type ParsedConfig = { ok: true; file: ConfigFile; raw: unknown } | ({ ok: false } & ConfigRefusal);

/** `rules.2.ports` → a readable place, `issue` → its message key when it is one. */
function refusalOf(issue: z.core.$ZodIssue | undefined, section: string): ConfigRefusal {
  const where = [section, ...(issue?.path ?? []).map(String)].join('.');
  const reason: MessageKey = issue && isMessageKey(issue.message) ? issue.message : 'bad_request';
  return { key: 'cfg_invalid_item', params: { where, reason } };
}

/**
 * Reads a configuration file (text or already-parsed JSON) and checks all of it, in the order that
 * gives the clearest reason: JSON at all, a Rampart file, a format this build reads, the checksum,
 * then every section. Nothing here writes anything.
 */
export function parseConfigFile(input: string | unknown): ParsedConfig {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input.replace(/^\uFEFF/, ''));
    } catch {
      return { ok: false, key: 'cfg_not_json' };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, key: 'cfg_foreign' };
  const record = value as Record<string, unknown>;
  if (record['format'] !== configFormat) return { ok: false, key: 'cfg_foreign' };
  const version = record['format_version'];
  if (typeof version === 'number' && Number.isInteger(version) && version > configFormatVersion) {
    return { ok: false, key: 'cfg_newer_format', params: { version, supported: configFormatVersion } };
  }
  const head = configHeadSchema.safeParse(value);
  if (!head.success) return { ok: false, key: 'cfg_damaged' };
  let checksum: string;
  try {
    checksum = checksumOf(record['content']);
  } catch {
    // Nesting too deep to walk (no configuration is): a damaged or hostile file.
    return { ok: false, key: 'cfg_damaged' };
  }
  if (checksum !== head.data.checksum) return { ok: false, key: 'cfg_checksum_mismatch' };
  const content = configContentSchema.safeParse(record['content']);
  if (!content.success) {
    const issue = content.error.issues[0];
    const [part, ...rest] = issue?.path ?? [];
    // `agent.firewall.rules.2.ports` reads as `firewall.rules.2.ports`; the console part as `console.…`.
    const section = part === 'agent' ? String(rest.shift() ?? '') : String(part ?? 'content');
    return { ok: false, ...refusalOf(issue ? { ...issue, path: rest } : undefined, section) };
  }
  const extra = Object.keys(record).filter((key) => !['format', 'format_version', 'software_version', 'created_at', 'device', 'checksum', 'content'].includes(key));
  if (extra.length > 0) return { ok: false, key: 'cfg_damaged' };
  return { ok: true, file: { ...head.data, content: content.data }, raw: value };
}
