import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardMaxNetAllow, guardMaxNetAllowPerRule, guardMaxNetRules, guardNetPlanSchema } from '@rampart/contracts';
import { planNet, rangeToCidrs, type GuardProcessRule, type NetPlanInput } from '../src/index.ts';

/*
 * Goldens of the net planner (tests/golden/net-*.json); UPDATE_GOLDEN=1 rewrites them after a
 * deliberate change.
 */
const goldenDir = path.join(import.meta.dirname, 'golden');

function golden(name: string, input: NetPlanInput): void {
  const result = planNet(input);
  expect(guardNetPlanSchema.safeParse(result.net).success).toBe(true); // every net part is one the helper accepts
  const file = path.join(goldenDir, `${name}.json`);
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const rule = (over: Partial<GuardProcessRule> & { id: number; process: string }): GuardProcessRule => ({ enabled: true, deny_tcp: false, deny_udp: false, allow: [], ...over });

const php = { dev: 2049, ino: 1001, path: '/usr/sbin/php-fpm8.2' };
const php2 = { dev: 2049, ino: 1002, path: '/usr/bin/php8.2' };
const curl = { dev: 2049, ino: 1003, path: '/usr/bin/curl' };
const node = { dev: 2049, ino: 1004, path: '/opt/rampart/node' };

const webServer: NetPlanInput = {
  rules: [
    // php may reach the database network and the resolver, nothing else
    rule({ id: 4, process: '*php*', deny_tcp: true, deny_udp: true, allow: ['10.0.0.0/8', '192.168.1.10-192.168.1.20', '2001:db8::/32', '9.9.9.9'] }),
    rule({ id: 2, process: '/usr/bin/curl', deny_udp: true }),
    rule({ id: 7, process: '/usr/bin/wget', deny_tcp: true }), // not installed
    rule({ id: 9, process: '/usr/bin/curl', enabled: false, deny_tcp: true }),
    rule({ id: 11, process: '*', deny_tcp: true, allow: ['*'] }), // allows every peer: denies nothing
  ],
  exes: { '*php*': [php, php2], '/usr/bin/curl': [curl], '/usr/bin/wget': [], '*': [php, php2, curl, node] },
  selfExes: [node],
  netRunning: true,
};

describe('net planner goldens', () => {
  it('a web server: php limited to its networks, curl without UDP, rules off, missing, and allowing all', () => golden('net-web-server', webServer));
  it('the helper’s network programs not running: every rule is not enforced', () => golden('net-not-running', { ...webServer, netRunning: false }));
});

describe('net planner', () => {
  it('caps a rule at the kernel table\'s networks per rule and in all: the rule is partial and the plan says why', () => {
    // Single addresses two apart never merge: each is its own CIDR.
    const hosts = (base: number, count: number) => Array.from({ length: count }, (_, i) => { const a = base + i * 2; return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`; });
    const big = hosts(0x0a000000, guardMaxNetAllowPerRule + 10);
    const result = planNet({
      rules: [rule({ id: 1, process: '/usr/bin/curl', deny_udp: true, allow: big }), rule({ id: 2, process: '/usr/bin/curl', deny_tcp: true, allow: hosts(0x0b000000, guardMaxNetAllowPerRule) }), rule({ id: 3, process: '/usr/bin/curl', deny_tcp: true, allow: hosts(0x0c000000, 5) })],
      exes: { '/usr/bin/curl': [curl] },
      selfExes: [],
      netRunning: true,
    });
    expect(result.net.rules.map((r) => r.allow.length)).toEqual([guardMaxNetAllowPerRule, guardMaxNetAllowPerRule, 0]);
    expect(result.net.rules.reduce((n, r) => n + r.allow.length, 0)).toBeLessThanOrEqual(guardMaxNetAllow);
    expect(result.ruleStates).toEqual({ 1: 'partial', 2: 'active', 3: 'partial' });
    expect(result.warnings).toEqual(['net_allow_capped']);
    expect(guardNetPlanSchema.safeParse(result.net).success).toBe(true);
  });

  it('writes ranges as the fewest CIDR blocks, IPv4 and IPv6', () => {
    expect(rangeToCidrs({ start: 0xc0a8010an, end: 0xc0a80114n }, 4)).toEqual(['192.168.1.10/31', '192.168.1.12/30', '192.168.1.16/30', '192.168.1.20/32']);
    expect(rangeToCidrs({ start: 0n, end: 0xffffffffn }, 4)).toEqual(['0.0.0.0/0']);
    expect(rangeToCidrs({ start: 1n, end: 1n }, 6)).toEqual(['::1/128']);
  });

  it('restricts Rampart’s own executables never, even under `*`, and says so', () => {
    const result = planNet({ rules: [rule({ id: 1, process: '*', deny_udp: true })], exes: { '*': [php, node] }, selfExes: [node], netRunning: true });
    expect(result.net.exes.map((e) => e.path)).toEqual([php.path]);
    expect(result.warnings).toContain('net_self_exempt');
  });

  it('merges an executable matched by two rules into one entry naming both', () => {
    const result = planNet({
      rules: [rule({ id: 1, process: '*php*', deny_tcp: true }), rule({ id: 2, process: '/usr/bin/php8.2', deny_udp: true })],
      exes: { '*php*': [php, php2], '/usr/bin/php8.2': [php2] },
      selfExes: [],
      netRunning: true,
    });
    expect(result.net.exes).toEqual([
      { ...php, rules: [0] },
      { ...php2, rules: [0, 1] },
    ]);
  });

  it('plans at most the kernel’s rule count and leaves the rest not enforced', () => {
    const many = Array.from({ length: guardMaxNetRules + 2 }, (_, i) => rule({ id: i + 1, process: '/usr/bin/curl', deny_tcp: true }));
    const result = planNet({ rules: many, exes: { '/usr/bin/curl': [curl] }, selfExes: [], netRunning: true });
    expect(result.net.rules).toHaveLength(guardMaxNetRules);
    expect(result.ruleStates[guardMaxNetRules + 2]).toBe('not_enforced');
    expect(result.warnings).toContain('net_too_many_rules');
    expect(guardNetPlanSchema.safeParse(result.net).success).toBe(true);
  });

  it('skips entries that are not addresses and warns', () => {
    const result = planNet({ rules: [rule({ id: 1, process: '/usr/bin/curl', deny_tcp: true, allow: ['10.0.0.1/8', 'nonsense', '10.1.2.3'] })], exes: { '/usr/bin/curl': [curl] }, selfExes: [], netRunning: true });
    expect(result.net.rules[0]?.allow).toEqual(['10.1.2.3/32']);
    expect(result.warnings).toEqual(['net_bad_peer']);
  });
});
