import { randomBytes } from 'node:crypto';
import {
  configListChunk, configListNames,
  type AgentConfig, type ConfigBackupKind, type ConfigFile, type ConfigImportResult, type ConfigLists, type ConfigRestoreResult, type FirewallGuard,
} from '@rampart/contracts';
import { AgentCallError } from '@rampart/agent-client';
import type { ConsoleContext } from '../context.ts';
import { reconcileModules } from '../services/module-reconciler.ts';
import { BackupStore, backupsDirFor } from './backup-store.ts';
import { buildConfigFile, parseConfigFile, serializeConfigFile, type ConfigRefusal } from './config-file.ts';
import { applyConsole, checkConsole, exportConsole } from './console-part.ts';

/** A restore (or an upload) that did not happen, and why. */
export type Refused = { refused: ConfigRefusal };
export type Checked = { file: ConfigFile; raw: unknown } | Refused;

/** An import rewrites a whole firewall table: it may take longer than an ordinary call. */
const importTimeoutMs = 120_000;

/**
 * Export, server backups and restore of the whole configuration (see contracts/config-backup.ts
 * for what it holds).
 *
 * A restore is all or nothing:
 *  1. the file is checked whole first (marker, format, checksum, every section; console settings
 *     each against their own schema) — a bad or foreign file changes nothing and says why;
 *  2. the configuration as it stands is saved as an automatic server backup (`-auto`), so the
 *     restore can be undone (restore that backup, or POST /system/config/restore);
 *  3. the agent's part goes in one agent call (`config.import`, its list entries staged ahead in
 *     chunks), which checks again and applies in its own transaction, or refuses whole (another
 *     firewall change on probation);
 *  4. only then the console's part, in one SQLite transaction; should that fail, the agent part is
 *     put back from the automatic backup of step 2;
 *  5. the module switches are pushed to the agent.
 * One restore at a time.
 */
export class ConfigBackups {
  readonly store: BackupStore;
  readonly #ctx: ConsoleContext;
  #busy = false;

  constructor(ctx: ConsoleContext, dir = backupsDirFor(ctx.db)) {
    this.#ctx = ctx;
    this.store = new BackupStore(dir);
  }

  /** The configuration as it stands now. */
  async current(): Promise<ConfigFile> {
    const core = await this.#ctx.agent.call('config.export', {}, { timeoutMs: importTimeoutMs });
    const lists: ConfigLists = { white: [], black: [], super: [] };
    for (const list of configListNames) {
      for (let after = 0; ;) {
        const page = await this.#ctx.agent.call('config.export.list', { list, after, limit: configListChunk }, { timeoutMs: importTimeoutMs });
        for (const entry of page.entries) lists[list].push(entry);
        if (page.entries.length < configListChunk) break;
        after = page.last;
      }
    }
    const agent: AgentConfig = { ...core, firewall: { ...core.firewall, lists } };
    return buildConfigFile({ console: exportConsole(this.#ctx.db), agent }, this.#ctx.now(), this.#ctx.deviceId());
  }

  /** The agent's part: its lists staged chunk by chunk, then everything applied in one `config.import`. */
  async #importAgent(agent: AgentConfig, guard: FirewallGuard): Promise<ConfigImportResult> {
    const { lists, ...firewall } = agent.firewall;
    const stage = randomBytes(16).toString('hex');
    let staged = false;
    for (const list of configListNames) {
      for (let i = 0; i < lists[list].length; i += configListChunk) {
        await this.#ctx.agent.call('config.stage', { stage, list, entries: lists[list].slice(i, i + configListChunk) }, { timeoutMs: importTimeoutMs });
        staged = true;
      }
    }
    return this.#ctx.agent.call('config.import', { config: { ...agent, firewall }, stage: staged ? stage : null, guard }, { timeoutMs: importTimeoutMs });
  }

  async exportText(): Promise<string> {
    return serializeConfigFile(await this.current());
  }

  async backupNow(kind: ConfigBackupKind = 'manual'): Promise<string> {
    return this.store.save(await this.exportText(), kind, this.#ctx.now());
  }

  /** Checks a file whole without changing anything. */
  check(input: unknown): Checked {
    if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) return { refused: { key: 'cfg_empty' } };
    const parsed = parseConfigFile(input);
    if (!parsed.ok) return { refused: { key: parsed.key, ...(parsed.params ? { params: parsed.params } : {}) } };
    const consolePart = checkConsole(this.#ctx.db, parsed.file.content.console);
    if (!consolePart.ok) return { refused: { key: 'cfg_invalid_item', params: { where: `console.settings.${consolePart.key}`, reason: consolePart.issue } } };
    return { file: parsed.file, raw: parsed.raw };
  }

  /** Stores an uploaded file as a server backup, once it has passed every check. */
  async upload(input: unknown): Promise<{ file: string } | Refused> {
    const checked = this.check(input);
    if ('refused' in checked) return checked;
    // Stored as it came: its checksum is over the file as written, not over the checked (normalized) form.
    return { file: await this.store.save(`${JSON.stringify(checked.raw, null, 1)}\n`, 'upload', this.#ctx.now()) };
  }

  async restore(input: unknown, guard: FirewallGuard): Promise<ConfigRestoreResult | Refused> {
    if (this.#busy) return { refused: { key: 'cfg_busy' } };
    this.#busy = true;
    try {
      return await this.#restore(input, guard);
    } finally {
      this.#busy = false;
    }
  }

  async restoreStored(name: string, guard: FirewallGuard): Promise<ConfigRestoreResult | Refused> {
    const text = await this.store.read(name);
    if (text === null) return { refused: { key: 'cfg_backup_not_found' } };
    return this.restore(text, guard);
  }

  async #restore(input: unknown, guard: FirewallGuard): Promise<ConfigRestoreResult | Refused> {
    const checked = this.check(input);
    if ('refused' in checked) return checked;
    const { content } = checked.file;
    const db = this.#ctx.db;

    const before = await this.current();
    const undoFile = await this.store.save(serializeConfigFile(before), 'auto', this.#ctx.now(), { prune: false });

    // Refused or failed (the agent answered so), nothing changed: the undo point is not needed either.
    // Without an answer (timeout) the import may still land: the undo point stays.
    const agent = await this.#importAgent(content.agent, guard).catch(async (error: unknown) => {
      if (error instanceof AgentCallError) await this.store.remove(undoFile);
      throw error;
    });
    if (agent.refused) {
      await this.store.remove(undoFile);
      return { refused: { key: agent.refused } };
    }

    // Checked again against the database as it is now (a setting may have changed meanwhile).
    const consolePart = checkConsole(db, content.console);
    try {
      if (!consolePart.ok) throw new Error(`console setting ${consolePart.key} no longer fits`);
      applyConsole(db, consolePart.values, content.console.modules);
    } catch (error) {
      await this.#importAgent(before.content.agent, guard);
      throw error;
    }
    await reconcileModules(this.#ctx);
    await this.store.prune();
    return { undo_file: undoFile, probation: agent.probation, secrets_dropped: agent.secrets_dropped + consolePart.secretsDropped };
  }

  /** Undoes the last restore: the newest automatic backup. */
  async undoLast(guard: FirewallGuard): Promise<ConfigRestoreResult | Refused> {
    const newest = (await this.store.list()).find((backup) => backup.kind === 'auto');
    if (!newest) return { refused: { key: 'cfg_no_undo' } };
    return this.restoreStored(newest.file, guard);
  }
}
