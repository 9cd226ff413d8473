import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createNftExecutor, type NftExecutor } from '@rampart/firewall';
import { openGeoIp, type GeoIp, type GeoIpOptions } from '@rampart/geoip';
import { effectiveUid } from '../host/kernel-status.ts';
import { AttackPipeline, type SensorOptions } from './attack-pipeline.ts';
import { FirewallService, type FirewallSinks } from './firewall-service.ts';

export interface FirewallOptions {
  /** The nft runner; null: no kernel changes. Defaults to the host's nft when running as root. */
  nft?: NftExecutor | null;
  geo?: GeoIpOptions;
  /** An opened geo-IP to share (the agent's one, also used by the dashboard); else one is opened from `geo`. */
  geoIp?: GeoIp;
  now?: () => number;
  background?: boolean;
  watchIntervalMs?: number;
  probationMs?: number;
  /** Log sensors of attack protection (tests point them at their own files and journal). */
  sensors?: SensorOptions;
  /** System protection is paused at start (the agent restarted during a temporary disable). */
  paused?: boolean;
}

/** The host's nft when running as root and nft is installed; else null (nothing is enforced). */
export function hostNft(): NftExecutor | null {
  if (effectiveUid() !== 0) return null;
  const probe = spawnSync('nft', ['--version'], { stdio: 'ignore' });
  return probe.status === 0 ? createNftExecutor() : null;
}

/** The firewall, with its geo-IP areas and the kernel it applies to; the ruleset goes in at once. */
export async function openFirewall(stateDir: string, enabled: boolean, sinks: FirewallSinks, log: (line: string) => void, options: FirewallOptions = {}): Promise<FirewallService> {
  const geo = options.geoIp ?? openGeoIp({ cacheDir: path.join(stateDir, 'geoip-cache'), ...options.geo });
  const service = new FirewallService({
    stateDir,
    log,
    nft: options.nft === undefined ? hostNft() : options.nft,
    areas: {
      ranges: (codes) => geo.ranges(codes),
      areaOf: (ip) => {
        const found = geo.lookup(ip);
        return [found.country, found.province].filter((code): code is string => code !== null);
      },
    },
    sinks,
    enabled,
    now: options.now,
    background: options.background,
    watchIntervalMs: options.watchIntervalMs,
    probationMs: options.probationMs,
    paused: options.paused,
  });
  await service.start();
  await service.attach(new AttackPipeline(service, options.sensors ?? {}, log));
  return service;
}
