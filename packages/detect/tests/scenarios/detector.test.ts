import { describe, expect, it } from 'vitest';
import { createDetector, type ParsedFields, type PipelineEvent, type Scenario } from '../../src/index.ts';

const base = {
  description: { 'zh-CN': '测试', 'en-US': 'test' },
  group_by: 'ip',
  decision: { action: 'block', duration_minutes: 60, reason: 'test' },
  fixture: '/nonexistent',
} as const;

const failures: Scenario = { ...base, name: 'failures', filter: { kind: 'ssh_auth_failure' }, type: 'count', threshold: 3, window: 60 };
const userSpray: Scenario = { ...base, name: 'user-spray', filter: { kind: 'ssh_notice', note: 'invalid_user' }, type: 'distinct', distinct: 'user', threshold: 4, window: 300 };

const event = (time: number, parsed: ParsedFields): PipelineEvent => ({ source: 'sshd-syslog', raw: '', time, parsed, matched: [], overflows: [], decisions: [] });
const failure = (time: number, ip = '203.0.113.1') => event(time, { kind: 'ssh_auth_failure', ip, user: 'root' });
const invalidUser = (time: number, user: string, ip = '203.0.113.1') => event(time, { kind: 'ssh_notice', note: 'invalid_user', ip, user });

describe('detector', () => {
  it('count: overflows on the event that makes it more than the threshold, then starts the group afresh', () => {
    const d = createDetector([failures]);
    const overflowAt: number[] = [];
    for (let i = 0; i < 8; i++) {
      const e = failure(i * 1000);
      d.observe(e);
      expect(e.matched).toEqual(['failures']);
      if (e.overflows.length) overflowAt.push(i);
    }
    expect(overflowAt).toEqual([3, 7]);
    const e = failure(7000);
    d.observe(e);
    expect(e.overflows).toEqual([]);
    expect(d.stats().failures).toMatchObject({ matched: 9, overflows: 2, groups: 1 });
  });

  it('reports the overflow: group, count, first and last time', () => {
    const d = createDetector([failures]);
    let last: PipelineEvent | undefined;
    for (const t of [1000, 2000, 3000, 4500]) d.observe((last = failure(t)));
    expect(last!.overflows).toEqual([{ scenario: 'failures', group: '203.0.113.1', count: 4, firstTime: 1000, time: 4500 }]);
  });

  it('ignores events the filter does not match or that lack the group field', () => {
    const d = createDetector([failures]);
    for (let i = 0; i < 10; i++) {
      const wrongKind = event(i, { kind: 'ssh_notice', note: 'probe', ip: '203.0.113.1' });
      const noAddress = event(i, { kind: 'ssh_auth_failure', user: 'root' });
      d.observe(wrongKind);
      d.observe(noAddress);
      expect(wrongKind.matched).toEqual([]);
      expect(noAddress.overflows).toEqual([]);
    }
  });

  it('distinct: more than `threshold` different values of the field', () => {
    const d = createDetector([userSpray]);
    const users = ['admin', 'admin', 'test', 'oracle', 'test', 'pi', 'git'];
    const overflows = users.map((u, i) => {
      const e = invalidUser(i * 1000, u);
      d.observe(e);
      return e.overflows.length;
    });
    expect(overflows).toEqual([0, 0, 0, 0, 0, 0, 1]); // admin, test, oracle, pi, git: the fifth name
  });

  it('distinct: values older than the window no longer count', () => {
    const d = createDetector([userSpray]);
    const results = [
      [0, 'a'],
      [1000, 'b'],
      [2000, 'c'],
      [3000, 'd'],
      [400_000, 'e'],
    ].map(([t, u]) => {
      const e = invalidUser(t as number, u as string);
      d.observe(e);
      return e.overflows.length;
    });
    expect(results).toEqual([0, 0, 0, 0, 0]);
  });

  it('tracks at most maxGroups sources: a flood of addresses cannot grow memory', () => {
    const d = createDetector([failures], { maxGroups: 500 });
    for (let i = 0; i < 50_000; i++) d.observe(failure(1000 + i, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    expect(d.stats().failures).toMatchObject({ groups: 500, evicted: 49_500 });
  });

  it('keeps windows across a settings change that leaves counting alone, and resets them otherwise', () => {
    const d = createDetector([failures]);
    for (const t of [0, 1000, 2000]) d.observe(failure(t));
    d.reconfigure([{ ...failures, decision: { ...failures.decision, duration_minutes: 5 } }]);
    const kept = failure(3000);
    d.observe(kept);
    expect(kept.overflows).toHaveLength(1);

    for (const t of [4000, 5000, 6000]) d.observe(failure(t));
    d.reconfigure([{ ...failures, window: 61 }]);
    const reset = failure(7000);
    d.observe(reset);
    expect(reset.overflows).toEqual([]);
    expect(d.stats().failures!.groups).toBe(1);
  });

  it('a line that arrives late (merged sources) still counts', () => {
    const d = createDetector([failures]);
    const results = [10_000, 9_000, 11_000, 8_000].map((t) => {
      const e = failure(t);
      d.observe(e);
      return e.overflows.length;
    });
    expect(results).toEqual([0, 0, 0, 1]);
  });
});
