import { networkInterfaces } from 'node:os';
import { internalArea, isInternalAddress } from '@rampart/contracts';
import type { EventStore } from '@rampart/events';
import type { GeoIp } from '@rampart/geoip';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import { readConnections } from './connections.ts';

/**
 * An address's area for the dashboard: `internal` for private ranges, else its Chinese province
 * (CN-GD: the China map places it; the world map sums provinces into China), else its country, '' unknown.
 */
export function dashboardAreaOf(geo: GeoIp | null): (ip: string) => string {
  return (ip) => {
    if (isInternalAddress(ip)) return internalArea;
    try {
      const where = geo?.lookup(ip);
      return where?.province ?? where?.country ?? '';
    } catch {
      // Geo data missing or unreadable: the address still counts, its area unknown.
      return '';
    }
  };
}

/** The area of the server's first public address (the map's target when no location is chosen); '' when it has none. */
export function serverArea(areaOf: (ip: string) => string): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) {
      if (address.internal || isInternalAddress(address.address)) continue;
      const area = areaOf(address.address);
      if (area !== '' && area !== internalArea) return area;
    }
  }
  return '';
}

/** Situational awareness: the figures from the event store's rollups, and the host's connections. */
export function dynamicHandlers(store: EventStore, areaOf: (ip: string) => string, now: () => number): Pick<AgentHandlers, 'dynamic.overview' | 'dynamic.latest' | 'dynamic.connections'> {
  return {
    'dynamic.overview': async () => ({ ...store.dynamic.overview(now()), server_area: serverArea(areaOf) }),
    'dynamic.latest': async () => store.dynamic.latest(),
    'dynamic.connections': async () => readConnections(areaOf),
  };
}
