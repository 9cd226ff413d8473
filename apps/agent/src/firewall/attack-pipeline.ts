import { createPipeline, loadScenarios, type Pipeline, type ScenarioOverrides } from '@rampart/detect';
import { interceptReasonSchema, type AttackSettings } from '@rampart/contracts';
import type { FirewallService } from './firewall-service.ts';

export interface SensorOptions {
  /** journalctl options (tests read a journal folder); false: no journal sensor at all. */
  journal?: { directory?: string; journalctl?: string } | false;
  /** How often tailed files are looked at besides inotify. */
  pollMs?: number;
  /** Scenario files; the shipped ones by default. */
  scenarioDir?: string;
}

/** The settings page's numbers as overrides of the scenario files. 404 scan and CC are per minute. */
export function scenarioOverrides(settings: AttackSettings): ScenarioOverrides {
  const { ssh_bruteforce: ssh, scan_404: scan, cc } = settings;
  return {
    'ssh-bruteforce': { enabled: ssh.enabled, threshold: ssh.attempts, window: ssh.seconds, duration_minutes: ssh.block_minutes },
    'http-404-scan': { enabled: scan.enabled, threshold: scan.per_minute, window: 60, duration_minutes: scan.block_minutes },
    'http-cc': { enabled: cc.enabled, threshold: cc.per_minute, window: 60, duration_minutes: cc.block_minutes },
  };
}

/**
 * Attack protection from logs: sshd's failures (journald and auth log files, since many hosts
 * have only one of them) and web access logs (nginx, Apache) → scenarios → blocks in the
 * interception list. Rebuilt when the settings or the module switch change.
 */
export class AttackPipeline {
  readonly #service: FirewallService;
  readonly #options: SensorOptions;
  readonly #log: (line: string) => void;
  #pipeline: Pipeline | null = null;
  #scenarioList: ReturnType<typeof loadScenarios>;

  constructor(service: FirewallService, options: SensorOptions, log: (line: string) => void) {
    this.#service = service;
    this.#options = options;
    this.#log = log;
    // A bad scenario file stops the start with a message naming the file and the field.
    this.#scenarioList = loadScenarios(options.scenarioDir);
  }

  get pipeline(): Pipeline | null {
    return this.#pipeline;
  }

  /** (Re)builds the sensors for the current settings; with the firewall off or protection paused there are none. */
  async configure(): Promise<void> {
    await this.#pipeline?.close();
    this.#pipeline = null;
    if (!this.#service.enforcing) return;
    const settings = this.#service.settings.attack();
    const service = this.#service;
    const pipeline = createPipeline({
      scenarios: this.#scenarioList,
      overrides: scenarioOverrides(settings),
      isExempt: (ip) => service.isExempt(ip),
      isBlocked: (ip) => service.intercepts.isBlocked(ip, service.now()),
      now: () => service.now(),
      onDecision: (decision, event) => {
        const reason = interceptReasonSchema.safeParse(decision.reason);
        if (!reason.success) return this.#log(`firewall: scenario ${decision.scenario} decided an unknown reason ${decision.reason}`);
        void service.block(decision.ip, reason.data, decision.durationMinutes, event.raw).catch((error: unknown) => this.#log(`firewall: block failed: ${String(error)}`));
      },
    });
    const onError = (error: unknown) => this.#log(`firewall sensor: ${error instanceof Error ? error.message : String(error)}`);
    const tail = { pollMs: this.#options.pollMs ?? 1000, onError };
    if (settings.ssh_bruteforce.enabled) {
      for (const file of settings.ssh_bruteforce.log_files) pipeline.attachFile(file, 'sshd-syslog', tail);
      if (settings.ssh_bruteforce.journal && this.#options.journal !== false) pipeline.attachJournal({ ...(this.#options.journal ?? {}), onError });
    }
    if (settings.scan_404.enabled || settings.cc.enabled) {
      for (const log of settings.access_logs) pipeline.attachFile(log.path, log.format, tail);
    }
    this.#pipeline = pipeline;
  }

  async close(): Promise<void> {
    await this.#pipeline?.close();
    this.#pipeline = null;
  }
}
