import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluateInbound,
  hourRange,
  insideWindows,
  nextOffsetChange,
  planFullRuleset,
  planRulesRefresh,
  utcWindowPieces,
  type DesiredFirewall,
  type NftScript,
  type PlannedRemote,
} from '../src/index.ts';
import { fixedNow, sampleAreaOf, sampleAreas, sampleState } from './fixtures.ts';

/* Remote-login protection in the planner: the chain, its place, the windows in UTC, DST. */

function golden(name: string, script: NftScript): void {
  const file = join(import.meta.dirname, 'golden', `${name}.json`);
  const text = `${JSON.stringify(script, null, 1)}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const weekdays = [1, 2, 3, 4, 5];
const remote: PlannedRemote = {
  ports: [22, 2222],
  ips: ['10.9.0.0/16', '2001:db8:9::1'],
  areas: ['JP'],
  windows: [{ days: weekdays, start: '09:00', end: '18:00' }],
  utcOffsetMinutes: 480,
};
const withRemote = (change: Partial<PlannedRemote> = {}, now = fixedNow): DesiredFirewall => ({ ...sampleState, now, remote: { ...remote, ...change } });
const ruleOf = (command: unknown) => (command as { add?: { rule?: { chain: string; comment?: string; expr: unknown[] } } }).add?.rule;

/** Minutes east of UTC in Berlin, from the platform's time-zone data (CET +60, CEST +120). */
const berlinOffset = (at: number): number => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' }).formatToParts(new Date(at));
  const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d\d):(\d\d)/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
};

describe('remote protection in the planner', () => {
  it('plans the remote chain inside the one table (golden)', () => {
    golden('remote-full', planFullRuleset(withRemote(), sampleAreas).script);
  });

  it('jumps to the remote chain right after the super whitelist and before the whitelist', () => {
    const input = planFullRuleset(withRemote(), sampleAreas).script.nftables.map(ruleOf).filter((r) => r?.chain === 'input').map((r) => r?.comment ?? '');
    const jump = input.indexOf('remote login');
    expect(jump).toBeGreaterThan(input.lastIndexOf('super list'));
    expect(jump).toBeLessThan(input.indexOf('white list'));
  });

  it('converts local windows to UTC days and hours (UTC+8: 09:00-18:00 is 01:00-10:00 the same days)', () => {
    expect(utcWindowPieces(remote.windows, 480)).toEqual([{ days: weekdays, from: 60, to: 600 }]);
    expect(hourRange({ days: [1], from: 60, to: 600 })).toEqual(['01:00:00', '09:59:59']);
  });

  it('splits a window that crosses UTC midnight into two pieces on the right days', () => {
    // UTC-5: Monday 20:00-23:00 local is Tuesday 01:00-04:00 UTC; UTC+8: Monday 06:00-10:00 local starts Sunday 22:00 UTC.
    expect(utcWindowPieces([{ days: [1], start: '20:00', end: '23:00' }], -300)).toEqual([{ days: [2], from: 60, to: 240 }]);
    expect(utcWindowPieces([{ days: [1], start: '06:00', end: '10:00' }], 480)).toEqual([
      { days: [1], from: 0, to: 120 },
      { days: [0], from: 1320, to: 1440 },
    ]);
    // Saturday late at UTC+14 wraps the week to Saturday UTC; Sunday 00:30 at UTC-1 stays Sunday.
    expect(utcWindowPieces([{ days: [0], start: '00:30', end: '01:00' }], 60)).toEqual([{ days: [6], from: 1410, to: 1440 }]);
    expect(hourRange({ days: [6], from: 1410, to: 1440 })).toEqual(['23:30:00', '23:59:59']);
  });

  it('authorizes each source in each window piece, and drops the rest; no windows means at any time', () => {
    const chain = planFullRuleset(withRemote(), sampleAreas).script.nftables.map(ruleOf).filter((r) => r?.chain === 'remote_in');
    // established return, (v4 list, v6 list, JP v4 set, JP v6 set) × 1 piece, drop.
    expect(chain.map((r) => r?.comment ?? '')).toEqual(['', ...Array(4).fill('remote authorized'), 'remote not authorized']);
    const anyTime = planFullRuleset(withRemote({ windows: [], ips: ['*'] }), sampleAreas).script.nftables.map(ruleOf).filter((r) => r?.chain === 'remote_in');
    expect(anyTime.map((r) => JSON.stringify(r?.expr))).toEqual([expect.stringContaining('established'), '[{"return":null}]', '[{"drop":null}]']);
  });

  it('authorizes nobody but the super whitelist when nothing is authorized', () => {
    const chain = planFullRuleset(withRemote({ ips: [], areas: [] }), sampleAreas).script.nftables.map(ruleOf).filter((r) => r?.chain === 'remote_in');
    expect(chain.map((r) => r?.comment ?? '')).toEqual(['', 'remote not authorized']);
    const at = Date.UTC(2026, 10, 23, 3, 0); // Monday 11:00 at UTC+8
    const desired = withRemote({ ips: [], areas: [] }, at);
    expect(evaluateInbound(desired, { source: '10.9.1.1', protocol: 'tcp', port: 22 }, sampleAreaOf)).toEqual({ verdict: 'drop', by: 'remote' });
    expect(evaluateInbound(desired, { source: '10.77.1.9', protocol: 'tcp', port: 22 }, sampleAreaOf)).toEqual({ verdict: 'accept', by: 'super' });
  });

  it('evaluates a connection as the kernel would: source, area and time', () => {
    const monday11 = Date.UTC(2026, 10, 23, 3, 0); // Monday 11:00 at UTC+8
    const monday20 = Date.UTC(2026, 10, 23, 12, 0); // Monday 20:00 at UTC+8
    const sunday11 = Date.UTC(2026, 10, 22, 3, 0);
    const probe = (source: string, at: number, port = 22) => evaluateInbound(withRemote({}, at), { source, protocol: 'tcp', port }, sampleAreaOf).by;
    expect(probe('10.9.1.1', monday11)).not.toBe('remote');
    expect(probe('10.50.3.3', monday11)).not.toBe('remote'); // JP
    expect(probe('10.9.1.1', monday20)).toBe('remote');
    expect(probe('10.9.1.1', sunday11)).toBe('remote');
    expect(probe('10.8.1.1', monday11)).toBe('remote');
    expect(probe('10.8.1.1', monday11, 80)).not.toBe('remote');
    expect(insideWindows(remote.windows, 480, monday11)).toBe(true);
  });

  it('refreshes the chain in place, and removes it when remote protection goes off', () => {
    const first = planFullRuleset(withRemote(), sampleAreas);
    expect(first.memory.remoteChain).toBe(true);
    expect(first.memory.areaSets.map((set) => set.name)).toEqual(expect.arrayContaining(['remote_area_v4', 'remote_area_v6']));
    const again = planRulesRefresh(withRemote(), sampleAreas, first.memory).script.nftables.map((c) => JSON.stringify(c));
    expect(again[5]).toBe('{"flush":{"chain":{"family":"inet","table":"rampart","name":"remote_in"}}}');
    const off = planRulesRefresh({ ...sampleState }, sampleAreas, first.memory);
    expect(off.memory.remoteChain).toBeUndefined();
    expect(JSON.stringify(off.script.nftables.at(-1))).toBe('{"delete":{"chain":{"family":"inet","table":"rampart","name":"remote_in"}}}');
    // Off from the start: the table is exactly the firewall's own.
    expect(planFullRuleset({ ...sampleState, remote: null }, sampleAreas)).toEqual(planFullRuleset(sampleState, sampleAreas));
  });

  it('reloads on DST changes: the planned hours are a pure function of the date', () => {
    const winter = Date.UTC(2026, 0, 15, 12);
    const summer = Date.UTC(2026, 6, 15, 12);
    const window = [{ days: [1], start: '09:00', end: '18:00' }];
    expect(utcWindowPieces(window, berlinOffset(winter))).toEqual([{ days: [1], from: 480, to: 1020 }]);
    expect(utcWindowPieces(window, berlinOffset(summer))).toEqual([{ days: [1], from: 420, to: 960 }]);
    // The next switch after mid-January 2026 is 29 March 01:00 UTC; after it, 25 October 01:00 UTC.
    expect(nextOffsetChange(Date.UTC(2026, 0, 15, 12, 0), berlinOffset)).toBe(Date.UTC(2026, 2, 29, 1, 0));
    expect(nextOffsetChange(Date.UTC(2026, 2, 29, 1, 0), berlinOffset)).toBe(Date.UTC(2026, 9, 25, 1, 0));
    expect(nextOffsetChange(winter, () => 480)).toBeNull();
  });
});
