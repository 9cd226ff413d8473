import path from 'node:path';
import {
  agentConfigCoreSchema, type AgentConfigCore, type ConfigImportResult, type ConfigListEntry, type ConfigListName, type ConfigLists, type FirewallGuard,
} from '@rampart/contracts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { FirewallService } from '../firewall/firewall-service.ts';
import type { LogService } from '../logs/log-service.ts';
import { SecretBox } from '../logs/sealed-secrets.ts';
import { exportFirewall, exportListPage, firewallReplacement, prepareFirewall } from './firewall-part.ts';
import { exportLogs, importLogs } from './logs-part.ts';

/** NTP settings through the time service's own calls (it restarts its timer on a change). */
export type NtpCalls = Pick<AgentHandlers, 'ntp.get' | 'ntp.set'>;

/**
 * The agent's part of a configuration backup: the firewall's desired state and the logging settings.
 *
 * The list entries (up to a million) travel in chunks: read with `config.export.list`, sent ahead
 * with `config.stage` (each chunk checked on arrival), and applied by the one `config.import`.
 *
 * An import is all or nothing. Order: everything is checked first (schema again, every address
 * canonical); then the logging and NTP parts are written (atomic files; their undo puts the old
 * ones back); then the firewall part in one SQLite transaction through the firewall's guard — if
 * the guard refuses (another change is on probation) or anything throws, the logging part is put
 * back (and the NTP settings). The kernel is rebuilt once, in one nft transaction. A firewall part that would cut the
 * administrator off goes live on probation like any other firewall change: unconfirmed, the
 * firewall part alone is rolled back after the probation time (the rest of the restore stays).
 */
export class ConfigBackupService {
  readonly #firewall: FirewallService;
  readonly #logs: LogService;
  readonly #ntp: NtpCalls;
  readonly #keyFile: string;
  #box: Promise<SecretBox> | undefined;
  #busy = false;
  /** Lists of the import being prepared (the console sends them in chunks before `config.import`). */
  #stage: { id: string; lists: ConfigLists; timer: NodeJS.Timeout } | null = null;

  constructor(firewall: FirewallService, logs: LogService, ntp: NtpCalls, stateDir: string) {
    this.#firewall = firewall;
    this.#logs = logs;
    this.#ntp = ntp;
    // The key the logging settings seal their secrets with (opened here too, to reopen them on import).
    this.#keyFile = path.join(path.resolve(stateDir), 'secret.key');
  }

  async export(): Promise<AgentConfigCore> {
    return { firewall: exportFirewall(this.#firewall), logs: await exportLogs(this.#logs), ntp: (await this.#ntp['ntp.get']({})).settings };
  }

  exportList(list: ConfigListName, after: number, limit: number): { entries: ConfigListEntry[]; last: number } {
    return exportListPage(this.#firewall, list, after, limit);
  }

  /** Adds a chunk to the staged lists; a new id starts over. A stage not imported within 10 minutes is dropped. */
  stage(id: string, list: ConfigListName, entries: readonly ConfigListEntry[]): number {
    if (this.#stage?.id !== id) {
      if (this.#stage) clearTimeout(this.#stage.timer);
      const timer = setTimeout(() => {
        this.#stage = null;
      }, 10 * 60_000);
      timer.unref();
      this.#stage = { id, lists: { white: [], black: [], super: [] }, timer };
    }
    const staged = this.#stage.lists[list];
    // Each chunk was checked against the schema on arrival (the dispatcher); addresses are made canonical at import.
    for (const entry of entries) staged.push(entry);
    return staged.length;
  }

  async import(input: AgentConfigCore, stage: string | null, guard: FirewallGuard): Promise<ConfigImportResult> {
    if (this.#busy) throw new Error('a configuration import is already running');
    this.#busy = true;
    try {
      const lists = this.#takeStage(stage);
      return await this.#import(input, lists, guard);
    } finally {
      this.#busy = false;
    }
  }

  #takeStage(stage: string | null): ConfigLists {
    if (stage === null) return { white: [], black: [], super: [] };
    if (this.#stage?.id !== stage) throw new Error('the staged lists of this import are gone (staged too long ago, or another import started)');
    const { lists, timer } = this.#stage;
    clearTimeout(timer);
    this.#stage = null;
    return lists;
  }

  async #import(input: AgentConfigCore, lists: ConfigLists, guard: FirewallGuard): Promise<ConfigImportResult> {
    // The dispatcher checked the params already; checked again here so a direct caller cannot skip it.
    const config = agentConfigCoreSchema.parse(input);
    const prepared = prepareFirewall(config.firewall, lists, this.#firewall.now());
    this.#box ??= SecretBox.open(this.#keyFile);
    const box = await this.#box;

    // The file-backed parts first (each undone by putting the old one back), the firewall last: its guard may refuse.
    const oldNtp = (await this.#ntp['ntp.get']({})).settings;
    const logs = await importLogs(this.#logs, box, config.logs);
    const undo = async () => {
      await this.#ntp['ntp.set']({ settings: oldNtp });
      await logs.undo();
    };
    let change;
    try {
      await this.#ntp['ntp.set']({ settings: config.ntp });
      change = await this.#firewall.guarded(guard, () => firewallReplacement(this.#firewall, config.firewall, prepared));
    } catch (error) {
      await undo();
      throw error;
    }
    if (change.refused) {
      await undo();
      return { refused: change.refused, probation: null, warnings: [], secrets_dropped: 0 };
    }
    // The attack settings changed: the log sensors follow them.
    await this.#firewall.reconfigured();
    return { refused: null, probation: change.probation, warnings: change.warnings, secrets_dropped: logs.secretsDropped };
  }
}

type ConfigMethods = 'config.export' | 'config.export.list' | 'config.stage' | 'config.import';

export function configBackupHandlers(firewall: FirewallService, logs: LogService, ntp: NtpCalls, stateDir: string): Pick<AgentHandlers, ConfigMethods> {
  const service = new ConfigBackupService(firewall, logs, ntp, stateDir);
  return {
    'config.export': () => service.export(),
    'config.export.list': async ({ list, after, limit }) => service.exportList(list, after, limit),
    'config.stage': async ({ stage, list, entries }) => ({ staged: service.stage(stage, list, entries) }),
    'config.import': ({ config, stage, guard }) => service.import(config, stage, guard),
  };
}
