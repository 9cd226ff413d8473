import { lstat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { agentMaxLineBytes, type ModuleFlags } from '@rampart/contracts';
import { collectHostInfo } from './host/host-info.ts';
import { RateSampler } from './host/rate-sampler.ts';
import { PerformanceHistory, hostSampleReader } from './host/performance-history.ts';
import { ModuleStore } from './modules/module-store.ts';
import { DelayedActions } from './power/delayed-action.ts';
import { serveConnection } from './protocol/connection.ts';
import { dispatchLine, type AgentHandlers } from './protocol/dispatch.ts';
import { prepareSocketPath, removeOwnSocket, restrictSocket } from './socket-file.ts';
import { LogService } from './logs/log-service.ts';
import { firewallHandlers } from './firewall/firewall-handlers.ts';
import type { FirewallService } from './firewall/firewall-service.ts';
import { hostNft, openFirewall, type FirewallOptions } from './firewall/open-firewall.ts';
import { ProtectionService } from './protection/protection-service.ts';
import { systemBasicHandlers } from './protection/protection-handlers.ts';
import { NtpService, type ClockSetter, type NtpServiceOptions } from './time/ntp-service.ts';
import { configBackupHandlers } from './config-backup/config-handlers.ts';
import { websiteHandlers } from './website/website-handlers.ts';
import type { GuardService } from './tamper/guard-service.ts';
import { openGuard, type GuardOptions } from './tamper/open-guard.ts';
import { tamperHandlers } from './tamper/tamper-handlers.ts';
import type { AccountService } from './account/account-service.ts';
import { accountHandlers } from './account/account-handlers.ts';
import { openAccount, type AccountOptions } from './account/open-account.ts';
import { ProcessService } from './process/process-service.ts';
import { processHandlers } from './process/process-handlers.ts';
import type { RemoteOptions, RemoteService } from './remote/remote-service.ts';
import { openRemote } from './remote/open-remote.ts';
import { remoteHandlers } from './remote/remote-handlers.ts';
import { AuditService, type AuditTarget } from './audit/audit-service.ts';
import { auditHandlers } from './audit/audit-handlers.ts';
import { PatchService } from './audit/patch-service.ts';
import { patchHandlers } from './audit/patch-handlers.ts';
import { inventoryHandlers } from './audit/inventory-handlers.ts';
import type { AptConfig } from '@rampart/audit';
import { TrojanService, type TrojanOptions } from './trojan/trojan-service.ts';
import { trojanHandlers } from './trojan/trojan-handlers.ts';
import { CloudService, type CloudOptions } from './cloud/cloud-service.ts';
import { cloudHandlers } from './cloud/cloud-handlers.ts';
import { openGeoIp } from '@rampart/geoip';
import { dashboardAreaOf, dynamicHandlers } from './dynamic/dynamic-handlers.ts';
import { homeUpdateHandlers } from './home/home-update-handlers.ts';
import { KernelUpdater } from './home/kernel-update.ts';
import { VirlibUpdater } from './home/virlib-update.ts';
import { ReleaseService, type ReleaseOptions } from './release/release-service.ts';

export interface AgentExecutors {
  restartSoftware(): Promise<void>;
  rebootServer(): Promise<void>;
  /** Sets the system clock after an NTP sync; absent, the time is fetched and the clock left alone (tests). */
  setClock?: ClockSetter;
}

export interface AgentOptions {
  socketPath: string;
  /** Agent state (modules.json, ...) lives here. */
  stateDir: string;
  /** When given, the socket is chowned root:<gid> so that group (the console) may connect. */
  socketGroupId?: number;
  executors: AgentExecutors;
  /** Called after module flags change and are persisted; engines plug in here. */
  onModuleSwitch?: (flags: ModuleFlags) => void;
  /** One line per message; defaults to stderr. */
  log?: (line: string) => void;
  /** Test seams: where rates are read from and the delay before restart/reboot runs. */
  netDevPath?: string;
  actionDelayMs?: number;
  /** The event store's clock and periodic upkeep (tests turn upkeep off and drive it by hand). */
  logs?: { now?: () => number; background?: boolean; backupTimeoutMs?: number };
  /** The host firewall's kernel runner, clock and upkeep (tests bind nft to a network namespace). */
  firewall?: FirewallOptions;
  /** System protection's clock (default: the event store's) and resume timer. */
  protection?: { now?: () => number; timers?: boolean };
  /** NTP sync upkeep and per-server timeout. */
  ntp?: Pick<NtpServiceOptions, 'timers' | 'timeoutMs' | 'lookup'>;
  /** Tamper protection's guard helper: its binary, socket and arguments, whether to start it, where executables are looked for. */
  guard?: GuardOptions;
  /** User protection: where the account files and sshd's drop-ins are, sshd itself, its clock (tests: temp copies, a fake sshd). */
  account?: AccountOptions;
  /** Remote-login protection: the `sshd -T` command, the UTC offset (tests inject a clock zone), where logins are read. */
  remote?: RemoteOptions;
  /**
   * The security audit's root and command executor. Absent: this agent cannot audit (tests). The
   * main entry passes `/` and the real executor, or RAMPART_AUDIT_ROOT's fixture root (browser tests).
   */
  audit?: AuditTarget;
  /**
   * The audit's patch tab: where apt works (apt's defaults in production, a sandbox in tests) and its
   * auto-update timer. Absent: this agent has no patch management (tests).
   */
  patch?: { apt: AptConfig; timers?: boolean };
  /** Trojan protection: its clock and minute timer (tests drive the schedule), the watch, site discovery. */
  trojan?: TrojanOptions;
  /** Cloud protection (threat-intel feeds): its nft runner (default: the firewall's), clock and update timer. */
  cloud?: CloudOptions;
  /** Rampart release checks and downloads (tests pretend an older running version). */
  release?: ReleaseOptions;
}

export interface RunningAgent {
  socketPath: string;
  /** The event store and its upkeep, for in-process producers and tests. */
  eventLog: LogService;
  firewall: FirewallService;
  protection: ProtectionService;
  ntp: NtpService;
  guard: GuardService;
  account: AccountService;
  process: ProcessService;
  remote: RemoteService;
  audit: AuditService;
  patch: PatchService;
  trojan: TrojanService;
  cloud: CloudService;
  release: ReleaseService;
  close(): Promise<void>;
}

function buildHandlers(
  store: ModuleStore,
  sampler: RateSampler,
  actions: DelayedActions,
  logs: LogService,
  firewall: FirewallService,
  guard: GuardService,
  account: AccountService,
  processes: ProcessService,
  remote: RemoteService,
  audit: AuditService,
  trojan: TrojanService,
  cloud: CloudService,
  patch: PatchService,
  options: AgentOptions,
  log: (line: string) => void,
  basic: ReturnType<typeof systemBasicHandlers>,
): Omit<AgentHandlers, 'host.performance' | 'dynamic.overview' | 'dynamic.latest' | 'dynamic.connections' | keyof ReturnType<typeof homeUpdateHandlers>> {
  return {
    ...logs.handlers(),
    ...basic,
    ...firewallHandlers(firewall),
    ...configBackupHandlers(firewall, logs, basic, options.stateDir),
    ...websiteHandlers(),
    ...tamperHandlers(guard),
    ...accountHandlers(account),
    ...processHandlers(processes),
    ...remoteHandlers(remote),
    ...auditHandlers(audit),
    ...inventoryHandlers(options.audit ?? null),
    ...patchHandlers(patch),
    ...trojanHandlers(trojan),
    ...cloudHandlers(cloud),
    'host.info': () => collectHostInfo(guard.kernelCauses()),
    'host.rates': () => sampler.current(),
    'module.list': async () => store.list(),
    'module.switch': async ({ modules, status }) => {
      const flags = await store.switch(modules, status);
      if (modules.includes('firewall')) await firewall.setEnabled(flags.firewall === 1);
      if (modules.includes('tamper')) await guard.setEnabled(flags.tamper === 1);
      if (modules.includes('account')) await account.setEnabled(flags.account === 1);
      if (modules.includes('process')) await processes.setEnabled(flags.process === 1);
      if (modules.includes('remote')) await remote.setEnabled(flags.remote === 1);
      if (modules.includes('trojan')) await trojan.setEnabled(flags.trojan === 1);
      if (modules.includes('cloud')) await cloud.setEnabled(flags.cloud === 1);
      try {
        options.onModuleSwitch?.(flags);
      } catch (error) {
        // The flags are already persisted; an engine hook failing must not undo the answer.
        log(`module switch hook failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      return flags;
    },
    'software.restart': async () => {
      actions.schedule('software restart', () => options.executors.restartSoftware());
      return { scheduled: true };
    },
    'server.reboot': async () => {
      actions.schedule('server reboot', () => options.executors.rebootServer());
      return { scheduled: true };
    },
  };
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts the agent on its Unix socket; resolves once it accepts connections. */
export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const log = options.log ?? ((line: string) => console.error(line));
  const socketPath = path.resolve(options.socketPath);
  const store = new ModuleStore(path.resolve(options.stateDir), log);
  await store.load();

  const sampler = new RateSampler({ netDevPath: options.netDevPath, log });
  // Host performance over time (GET /home/performance?period=): last hour in memory, 24 h / 7 d on disk.
  const perfHistory = new PerformanceHistory({ dbPath: path.join(path.resolve(options.stateDir), 'performance.db'), read: hostSampleReader(() => sampler.current()), log });
  const actions = new DelayedActions(log, options.actionDelayMs);
  // One geo-IP for the firewall's areas and the dashboard's attack sources (tables load on first use).
  const geo = openGeoIp({ cacheDir: path.join(path.resolve(options.stateDir), 'geoip-cache'), ...options.firewall?.geo });
  const areaOf = dashboardAreaOf(geo);
  const logs = await LogService.open({ stateDir: path.resolve(options.stateDir), log, areaOf, ...options.logs });
  const sinks = { event: (input: Parameters<LogService['event']>[0]) => logs.event(input), notice: (input: Parameters<LogService['notice']>[0]) => logs.notice(input) };
  // Protection's state first: a restart during a temporary disable must not put the ruleset back for a moment.
  const protection = await ProtectionService.open({ stateDir: path.resolve(options.stateDir), log, sinks, now: options.protection?.now ?? options.logs?.now, timers: options.protection?.timers });
  const firewall = await openFirewall(path.resolve(options.stateDir), (await store.list()).firewall === 1, sinks, log, { geoIp: geo, ...options.firewall, paused: protection.paused });
  protection.attach(firewall);
  const guard = await openGuard(path.resolve(options.stateDir), (await store.list()).tamper === 1, sinks, log, { ...options.guard, paused: protection.paused });
  protection.attach(guard);
  const account = await openAccount(path.resolve(options.stateDir), (await store.list()).account === 1, guard, sinks.event, log, options.account);
  const processes = await ProcessService.open(path.resolve(options.stateDir), guard, (await store.list()).process === 1, firewall);
  firewall.useCommonAreas(processes);
  const ntp = await NtpService.open({ stateDir: path.resolve(options.stateDir), log, setClock: options.executors.setClock ?? null, ...options.ntp });
  const remote = await openRemote(firewall, (await store.list()).remote === 1, sinks, log, options.remote);
  // The audit's runs and apt's jobs share one "execution in progress" (each refuses while the other works).
  const patch: PatchService = new PatchService({ stateDir: path.resolve(options.stateDir), apt: options.patch?.apt ?? null, log, now: options.logs?.now, timers: options.patch?.timers, otherBusy: () => audit.busy });
  const audit = new AuditService({ stateDir: path.resolve(options.stateDir), target: options.audit ?? null, moduleFlags: async () => store.list(), log, otherBusy: () => patch.busy });
  const trojan = await TrojanService.open(path.resolve(options.stateDir), (await store.list()).trojan === 1, sinks.event, log, { now: options.logs?.now, ...options.trojan });
  // Feeds never block the super whitelist: the firewall's list is read at each apply.
  const cloudNft = options.cloud?.nft !== undefined ? options.cloud.nft : options.firewall?.nft !== undefined ? options.firewall.nft : hostNft();
  const cloud = await CloudService.open(path.resolve(options.stateDir), (await store.list()).cloud === 1, sinks.event, log, () => firewall.lists.planned('super', Date.now()).map((entry) => entry.address), { now: options.logs?.now, ...options.cloud, nft: cloudNft });
  const release = await ReleaseService.open(path.resolve(options.stateDir), options.release);
  const handlers: AgentHandlers = {
    ...buildHandlers(store, sampler, actions, logs, firewall, guard, account, processes, remote, audit, trojan, cloud, patch, options, log, systemBasicHandlers(protection, ntp)),
    'host.performance': async ({ period }) => perfHistory.series(period),
    ...dynamicHandlers(logs.store, areaOf, options.logs?.now ?? Date.now),
    ...homeUpdateHandlers(new KernelUpdater(guard), new VirlibUpdater(cloud, trojan), release),
  };
  const sockets = new Set<net.Socket>();

  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, {
      maxLineBytes: agentMaxLineBytes,
      dispatch: (line) => dispatchLine(line, handlers, log),
      log,
    });
  });
  server.on('error', (error) => log(`agent socket error: ${error.message}`));

  try {
    await prepareSocketPath(socketPath);
    await listen(server, socketPath);
  } catch (error) {
    await ntp.close();
    await protection.close();
    await account.close();
    processes.close();
    await guard.close();
    await remote.close();
    audit.close();
    patch.close();
    await trojan.close();
    await cloud.close();
    await firewall.close();
    await logs.close();
    perfHistory.close();
    throw error;
  }
  let inode: number | undefined;
  try {
    await restrictSocket(socketPath, options.socketGroupId);
    inode = (await lstat(socketPath)).ino;
  } catch (error) {
    server.close();
    await removeOwnSocket(socketPath, undefined);
    await ntp.close();
    await protection.close();
    await account.close();
    processes.close();
    await guard.close();
    await remote.close();
    audit.close();
    patch.close();
    await trojan.close();
    await cloud.close();
    await firewall.close();
    await logs.close();
    perfHistory.close();
    throw error;
  }
  sampler.start();
  perfHistory.start();

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      sampler.stop();
      perfHistory.close();
      actions.cancelAll();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await serverClosed;
      await removeOwnSocket(socketPath, inode);
      await ntp.close();
      await protection.close();
      await account.close();
    processes.close();
    await guard.close();
      await remote.close();
      audit.close();
      patch.close();
      await trojan.close();
      await cloud.close();
      await release.close();
      await firewall.close();
      await logs.close();
    })();
    return closed;
  };
  return { socketPath, eventLog: logs, firewall, protection, ntp, guard, account, process: processes, remote, audit, patch, trojan, cloud, release, close };
}
