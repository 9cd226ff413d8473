import { describe, expect, it } from 'vitest';
import { createDecider, isLoopback, loadScenarios, type Overflow, type PipelineEvent } from '../src/index.ts';

const ssh = loadScenarios().find((s) => s.name === 'ssh-bruteforce')!;
const minute = 60_000;

const event = (ip: string, time: number): PipelineEvent => ({
  source: 'sshd-syslog',
  raw: 'Failed password …',
  time,
  parsed: { kind: 'ssh_auth_failure', ip },
  matched: ['ssh-bruteforce'],
  overflows: [],
  decisions: [],
});
const overflow = (ip: string, time: number): Overflow => ({ scenario: 'ssh-bruteforce', group: ip, count: 11, firstTime: time - 5000, time });

describe('decide', () => {
  it('blocks the address for the scenario’s duration, from the triggering event', () => {
    const decider = createDecider({ isExempt: () => false });
    const t = Date.parse('2026-11-22T01:10:24Z');
    expect(decider.decide(event('203.0.113.20', t), overflow('203.0.113.20', t), ssh)).toEqual({
      action: 'block',
      ip: '203.0.113.20',
      scenario: 'ssh-bruteforce',
      reason: 'ssh_bruteforce',
      durationMinutes: 60,
      time: t,
      until: t + 60 * minute,
      count: 11,
      source: 'sshd-syslog',
    });
  });

  it('never blocks an exempt address', () => {
    const exempt = new Set(['198.51.100.1']);
    const decider = createDecider({ isExempt: (ip) => isLoopback(ip) || exempt.has(ip) });
    for (const ip of ['198.51.100.1', '127.0.0.1', '127.8.9.1', '::1']) expect(decider.decide(event(ip, 0), overflow(ip, 0), ssh), ip).toBeUndefined();
    expect(decider.stats()).toEqual({ decisions: 0, exempt: 4, alreadyBlocked: 0 });
  });

  it('decides once per address until that block ends, then again', () => {
    const decider = createDecider({ isExempt: () => false });
    const ip = '203.0.113.20';
    expect(decider.decide(event(ip, 0), overflow(ip, 0), ssh)).toBeDefined();
    expect(decider.decide(event(ip, 59 * minute), overflow(ip, 59 * minute), ssh)).toBeUndefined();
    expect(decider.decide(event('203.0.113.21', minute), overflow('203.0.113.21', minute), ssh)).toBeDefined();
    expect(decider.decide(event(ip, 60 * minute), overflow(ip, 60 * minute), ssh)).toBeDefined();
    expect(decider.stats()).toEqual({ decisions: 3, exempt: 0, alreadyBlocked: 1 });
  });

  it('asks the firewall, when it can tell, whether the address is already blocked', () => {
    const intercepted = new Set(['203.0.113.5']);
    const decider = createDecider({ isExempt: () => false, isBlocked: (ip) => intercepted.has(ip) });
    expect(decider.decide(event('203.0.113.5', 0), overflow('203.0.113.5', 0), ssh)).toBeUndefined();
    intercepted.clear(); // the administrator released it
    expect(decider.decide(event('203.0.113.5', 1), overflow('203.0.113.5', 1), ssh)).toBeDefined();
  });

  it('forgets its own block when the address is released', () => {
    const decider = createDecider({ isExempt: () => false });
    expect(decider.decide(event('203.0.113.6', 0), overflow('203.0.113.6', 0), ssh)).toBeDefined();
    decider.release('203.0.113.6');
    expect(decider.decide(event('203.0.113.6', 1), overflow('203.0.113.6', 1), ssh)).toBeDefined();
  });
});
