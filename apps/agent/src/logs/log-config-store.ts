import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  backupRuleViewSchema, backupStatusSchema, defaultLogSettings, logSettingsSchema,
  type BackupRuleView, type BackupRulesInput, type LogSettings,
} from '@rampart/contracts';
import { writeFileAtomic } from '../modules/atomic-write.ts';
import type { SecretBox } from './sealed-secrets.ts';

/** A backup rule as stored: secrets sealed, plus the files already uploaded by it. */
const storedRuleSchema = backupRuleViewSchema
  .omit({ has_password: true, has_access_secret: true, last: true })
  .extend({ password: z.string(), access_secret: z.string(), uploaded: z.array(z.string()), last: backupStatusSchema.nullable() });
type StoredRule = z.infer<typeof storedRuleSchema>;

const fileSchema = z.object({ settings: logSettingsSchema, rules: z.array(storedRuleSchema) });

/** A rule ready to use: secrets opened. */
export type BackupRule = Omit<StoredRule, 'password' | 'access_secret'> & { password: string; access_secret: string };

/**
 * The logging settings and backup rules, in <stateDir>/logging.json (mode 0600). A damaged file
 * falls back to the defaults and is reported, never crashing the agent.
 */
export class LogConfigStore {
  readonly file: string;
  readonly #box: SecretBox;
  readonly #log: (line: string) => void;
  #settings: LogSettings = defaultLogSettings;
  #rules: StoredRule[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  constructor(stateDir: string, box: SecretBox, log: (line: string) => void) {
    this.file = path.join(stateDir, 'logging.json');
    this.#box = box;
    this.#log = log;
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#log(`cannot read ${this.file}: ${(error as Error).message}`);
      return;
    }
    try {
      const parsed = fileSchema.parse(JSON.parse(text));
      this.#settings = parsed.settings;
      this.#rules = parsed.rules;
    } catch (error) {
      this.#log(`${this.file} is damaged, using default logging settings: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
    }
  }

  get settings(): LogSettings {
    return this.#settings;
  }

  setSettings(settings: LogSettings): Promise<LogSettings> {
    return this.#write(() => {
      this.#settings = settings;
      return settings;
    });
  }

  views(): BackupRuleView[] {
    return this.#rules.map(({ password, access_secret, uploaded: _uploaded, ...rule }) => ({
      ...rule,
      has_password: password !== '',
      has_access_secret: access_secret !== '',
    }));
  }

  /** Enabled rules with their secrets, for an upload. */
  activeRules(): BackupRule[] {
    return this.#rules
      .filter((r) => r.enabled)
      .map((r) => ({ ...r, uploaded: [...r.uploaded], password: this.#box.open(r.password), access_secret: this.#box.open(r.access_secret) }));
  }

  /** Replaces the rule list; a blank secret on an existing rule keeps the stored one. */
  setRules(input: BackupRulesInput): Promise<BackupRuleView[]> {
    return this.#write(() => {
      const byId = new Map(this.#rules.map((r) => [r.id, r]));
      let nextId = Math.max(0, ...this.#rules.map((r) => r.id)) + 1;
      this.#rules = input.rules.map((rule) => {
        const old = rule.id !== undefined ? byId.get(rule.id) : undefined;
        const sameTarget = old && old.type === rule.type && (old.domain || old.ip) === (rule.domain || rule.ip) && old.bucket === rule.bucket && old.save_path === rule.save_path;
        return {
          id: old ? old.id : nextId++,
          enabled: rule.enabled, type: rule.type, bucket: rule.bucket, domain: rule.domain, ip: rule.ip, port: rule.port,
          username: rule.username, access_id: rule.access_id, save_path: rule.save_path, remark: rule.remark,
          password: rule.password !== '' ? this.#box.seal(rule.password) : (old?.password ?? ''),
          access_secret: rule.access_secret !== '' ? this.#box.seal(rule.access_secret) : (old?.access_secret ?? ''),
          // A rule that now points elsewhere starts over: every archive goes to the new place.
          uploaded: sameTarget ? old.uploaded : [],
          last: sameTarget ? old.last : null,
        };
      });
      return this.views();
    });
  }

  /** Records the outcome of one upload. */
  recordUpload(ruleId: number, file: string, at: number, error: string | null): Promise<void> {
    return this.#write(() => {
      const rule = this.#rules.find((r) => r.id === ruleId);
      if (!rule) return;
      rule.last = { at, ok: error === null, file, error: error ?? '' };
      if (error === null && !rule.uploaded.includes(file)) rule.uploaded = [...rule.uploaded, file].slice(-400);
    });
  }

  #write<T>(change: () => T): Promise<T> {
    const run = this.#queue.then(async () => {
      const result = change();
      await writeFileAtomic(this.file, JSON.stringify({ settings: this.#settings, rules: this.#rules }, null, 1));
      return result;
    });
    this.#queue = run.catch(() => {});
    return run;
  }
}
