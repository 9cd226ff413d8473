import { describe, expect, it } from 'vitest';
import {
  authorizationEntry,
  checkTimeLimits,
  evaluateRequestPolicy,
  hashAuthorizationPassword,
  verifyAuthorizationPassword,
  type TimedLists,
} from '../../src/policy/index.ts';
import { facts, noon, policyWith } from './support.ts';

describe('time-limited access', () => {
  const rule = (hash = '') =>
    policyWith((s) => {
      s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [{ start: '08:00', end: '18:00' }, { start: '22:00', end: '24:00' }] }];
      s.protect.authorization = { enabled: hash !== '', validity_minutes: 30, password_hash: hash };
    });
  const at = (hh: number, mm: number, path = '/Admin/login') => facts({ path, minuteOfDay: hh * 60 + mm });

  it('open inside the windows, refused outside, across each edge', () => {
    const policy = rule();
    expect(checkTimeLimits(policyWith(), at(7, 59))).toBeNull();
    expect(checkTimeLimits(policy, at(7, 59))).toMatchObject({ action: 'block', rule: 'protect.time_limit' });
    expect(checkTimeLimits(policy, at(8, 0))).toBeNull();
    expect(checkTimeLimits(policy, at(17, 59))).toBeNull();
    expect(checkTimeLimits(policy, at(18, 0))).not.toBeNull();
    expect(checkTimeLimits(policy, at(21, 59))).not.toBeNull();
    expect(checkTimeLimits(policy, at(22, 0))).toBeNull();
    expect(checkTimeLimits(policy, at(23, 59))).toBeNull();
    expect(checkTimeLimits(policy, at(0, 0))).not.toBeNull();
    expect(checkTimeLimits(policy, at(3, 0, '/public'))).toBeNull();
  });

  it('with an authorization password it asks for it; an authorized address gets in', () => {
    const hash = hashAuthorizationPassword('Open1234');
    const policy = rule(hash);
    const night = at(3, 0);
    expect(evaluateRequestPolicy(policy, night, { authorized: new Map(), intercepted: new Map() })).toEqual({ action: 'challenge', rule: 'protect.authorization' });
    expect(verifyAuthorizationPassword(hash, 'open1234')).toBe(false); // case-sensitive
    expect(verifyAuthorizationPassword(hash, 'Open1234')).toBe(true);
    const entry = authorizationEntry(night.clientIp, night.now, 30);
    expect(entry.expires_at).toBe(noon + 30 * 60_000);
    const timed: TimedLists = { authorized: new Map([[entry.ip, entry.expires_at]]), intercepted: new Map() };
    expect(evaluateRequestPolicy(policy, night, timed)).toBe('allow');
    expect(evaluateRequestPolicy(policy, { ...night, now: entry.expires_at }, timed)).toEqual({ action: 'challenge', rule: 'protect.authorization' });
  });

  it('a stored hash that is not ours never verifies', () => {
    expect(verifyAuthorizationPassword('', 'x')).toBe(false);
    expect(verifyAuthorizationPassword('scrypt$3$AAAA$AAAA', 'x')).toBe(false);
    expect(hashAuthorizationPassword('Open1234')).not.toBe(hashAuthorizationPassword('Open1234')); // salted
  });
});
