import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFullRuleset, planInterceptAdd, planInterceptRemove, planListChange, planRulesRefresh, scanLimit, type NftScript } from '../src/index.ts';
import { fixedNow, sampleAreas, sampleState } from './fixtures.ts';

/** Compares with tests/golden/<name>.json; `UPDATE_GOLDEN=1` rewrites the files after a deliberate change. */
function golden(name: string, script: NftScript): void {
  const file = join(import.meta.dirname, 'golden', `${name}.json`);
  const text = `${JSON.stringify(script, null, 1)}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const commandsOf = (script: NftScript) => script.nftables.map((c) => JSON.stringify(c));

describe('planner', () => {
  it('plans the whole table (golden)', () => {
    const { script, memory } = planFullRuleset(sampleState, sampleAreas);
    golden('full', script);
    expect(memory).toEqual({
      areaSets: [
        { family: 'inet', table: 'rampart', name: 'area_r3_v4', type: 'ipv4_addr', flags: ['interval'] },
        { family: 'inet', table: 'rampart', name: 'area_r3_v6', type: 'ipv6_addr', flags: ['interval'] },
      ],
      scanSets: ['scan_seen_v4_10s', 'scan_meter_v4_10s', 'scan_seen_v6_10s', 'scan_meter_v6_10s'],
    });
  });

  it('is pure: the same state gives the same script', () => {
    expect(planFullRuleset(sampleState, sampleAreas)).toEqual(planFullRuleset(structuredClone(sampleState), sampleAreas));
  });

  it('orders rules by priority, deny before allow at equal priority, and skips disabled ones', () => {
    const { script } = planFullRuleset(sampleState, sampleAreas);
    const comments = script.nftables
      .map((c) => (c as { add?: { rule?: { chain: string; comment?: string } } }).add?.rule)
      .filter((r) => r?.chain === 'rules_in')
      .map((r) => r?.comment);
    // Rule 2 (deny, 5) before 7 (allow, 5); then 3 and 4 (priority 20, by id); 1 (10) sits between.
    expect(comments).toEqual(['rule 2', 'rule 2', 'rule 7', 'rule 1', 'rule 3', 'rule 3', 'rule 4']);
    expect(comments).not.toContain('rule 5');
  });

  it('merges overlapping list entries and drops expired ones', () => {
    const text = commandsOf(planFullRuleset(sampleState, sampleAreas).script).join('\n');
    // 203.0.113.0/25 + .128-.255 are one /24; the expired 198.18.0.1 is absent; a duplicate host appears once.
    expect(text).toContain('{"prefix":{"addr":"203.0.113.0","len":24}}');
    expect(text).not.toContain('198.18.0.1');
    // A duplicate host appears once, as its longest-lived entry (here: no end).
    expect(text.match(/"198\.51\.100\.7"/g)?.length).toBe(1);
    expect(text).not.toContain('{"val":"198.51.100.7"');
    // The whitelist /30 and its own member: hosts in the hash set, the net in the interval set.
    expect(text).toContain('"name":"white_host_v4","elem":["192.0.2.1"]');
    expect(text).toContain('"name":"white_net_v4","elem":[{"prefix":{"addr":"192.0.2.0","len":30}}]');
    // Interception entries carry their remaining seconds; the ended one is gone.
    expect(text).toContain('{"elem":{"val":"192.0.2.200","timeout":600}}');
    expect(text).toContain('{"elem":{"val":"2001:db8::bad","timeout":91}}');
    expect(text).not.toContain('192.0.2.201');
  });

  it('leaves out the port-scan chain when port scan is off', () => {
    const off = { ...sampleState, portScan: { ...sampleState.portScan, enabled: false } };
    const text = commandsOf(planFullRuleset(off, sampleAreas).script).join('\n');
    expect(text).not.toContain('"jump":{"target":"attack_in"}');
    expect(text).not.toContain('"chain":"attack_in","comment":"port scan"');
  });

  it('refreshes rules without re-sending list contents (golden)', () => {
    const previous = planFullRuleset(sampleState, sampleAreas).memory;
    const changed = { ...sampleState, rules: sampleState.rules.filter((rule) => rule.id !== 3), portScan: { ...sampleState.portScan, seconds: 30 } };
    const { script, memory } = planRulesRefresh(changed, sampleAreas, previous);
    golden('refresh', script);
    const text = commandsOf(script).join('\n');
    expect(text).not.toContain('198.51.100.7');
    expect(text).toContain('{"delete":{"set":{"family":"inet","table":"rampart","name":"area_r3_v4"}}}');
    expect(memory.areaSets).toEqual([]);
    // A new window: new port-scan sets, the old ones deleted.
    expect(memory.scanSets).toEqual(['scan_seen_v4_30s', 'scan_meter_v4_30s', 'scan_seen_v6_30s', 'scan_meter_v6_30s']);
    expect(text).toContain('{"delete":{"set":{"family":"inet","table":"rampart","name":"scan_seen_v4_10s"}}}');
  });

  it('plans list changes as element deltas (golden)', () => {
    const script = planListChange({
      list: 'black',
      addedHosts: [{ address: '192.0.2.50', expires_at: null }, { address: '2001:db8::50', expires_at: fixedNow + 60_000 }],
      removedHosts: ['192.0.2.60'],
      netsBefore: ['10.0.0.0/24', '10.0.2.0/24'],
      netsAfter: ['10.0.0.0/24', '10.0.1.0/24', '10.0.2.0/24'],
      now: fixedNow,
    });
    golden('list-change', script);
    const text = commandsOf(script).join('\n');
    // The three /24s merge into one range: the two old intervals leave, the joined one arrives.
    expect(text).toContain('"delete":{"element":{"family":"inet","table":"rampart","name":"black_net_v4","elem":[{"prefix":{"addr":"10.0.0.0","len":24}},{"prefix":{"addr":"10.0.2.0","len":24}}]}}');
    expect(text).toContain('{"range":["10.0.0.0","10.0.2.255"]}');
  });

  it('plans interception adds with timeouts and removals from both sets', () => {
    const add = commandsOf(planInterceptAdd([{ ip: '192.0.2.9', expires_at: fixedNow + 120_000 }], fixedNow));
    expect(add).toEqual(['{"add":{"element":{"family":"inet","table":"rampart","name":"intercept_v4","elem":[{"elem":{"val":"192.0.2.9","timeout":120}}]}}}']);
    const remove = commandsOf(planInterceptRemove(['192.0.2.9'], 10)).join('\n');
    expect(remove).toContain('"delete":{"element":{"family":"inet","table":"rampart","name":"intercept_v4"');
    expect(remove).toContain('"delete":{"element":{"family":"inet","table":"rampart","name":"scan_block_v4"');
    expect(remove).toContain('{"flush":{"set":{"family":"inet","table":"rampart","name":"scan_meter_v4_10s"}}}');
  });

  it('turns "more than N ports in S seconds" into a token bucket', () => {
    expect(scanLimit(10, 10)).toEqual({ rate: 1, per: 'second', burst: 10 });
    expect(scanLimit(10, 60)).toEqual({ rate: 10, per: 'minute', burst: 10 });
    expect(scanLimit(7, 86_400)).toEqual({ rate: 7, per: 'day', burst: 7 });
    expect(scanLimit(7, 11)).toEqual({ rate: 54_982, per: 'day', burst: 7 });
  });
});
