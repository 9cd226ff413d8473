import { describe, expect, it } from 'vitest';
import {
  authorizationEntry,
  checkCc,
  checkTimeLimits,
  createFloodState,
  createMinuteCounter,
  evaluateRequestPolicy,
  hashAuthorizationPassword,
  pruneCounter,
  record404,
  recordRequest,
  verifyAuthorizationPassword,
  windowCount,
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

describe('minute counters', () => {
  it('"more than N" is literal: the Nth request in a minute passes, the N+1th is over', () => {
    const counter = createMinuteCounter(3);
    expect(recordRequest(counter, 'a', noon)).toBe(false);
    expect(recordRequest(counter, 'a', noon + 10)).toBe(false);
    expect(recordRequest(counter, 'a', noon + 20)).toBe(false);
    expect(recordRequest(counter, 'b', noon + 20)).toBe(false); // per address
    expect(recordRequest(counter, 'a', noon + 30)).toBe(true);
  });

  it('slides: requests older than a minute drop out, second by second', () => {
    const counter = createMinuteCounter(2);
    recordRequest(counter, 'a', noon); // second 0
    recordRequest(counter, 'a', noon + 30_000); // second 30
    expect(recordRequest(counter, 'a', noon + 59_999)).toBe(true); // second 59: 3 in the window
    expect(windowCount(counter, 'a', noon + 60_000)).toBe(2); // second 60: second 0 left
    expect(recordRequest(counter, 'a', noon + 60_000)).toBe(true); // 30, 59, 60
    expect(recordRequest(counter, 'a', noon + 120_000)).toBe(false);
  });

  it('forgets silent addresses', () => {
    const counter = createMinuteCounter(10);
    recordRequest(counter, 'a', noon);
    recordRequest(counter, 'b', noon + 30_000);
    pruneCounter(counter, noon + 60_000);
    expect([...counter.clients.keys()]).toEqual(['b']);
  });
});

describe('CC protection and 404 scan', () => {
  it('strict mode blocks the request over the threshold and intercepts the address', () => {
    const policy = policyWith((s) => void (s.protect.cc = { enabled: true, mode: 'strict', verification: 'redirect', per_minute: 2, block_minutes: 5 }));
    const state = createFloodState(policy);
    expect(checkCc(policy, state, facts())).toBeNull();
    expect(checkCc(policy, state, facts())).toBeNull();
    const over = checkCc(policy, state, facts());
    expect(over?.decision).toEqual({ action: 'block', rule: 'protect.cc', kind: 'policy' });
    expect(over?.intercept).toMatchObject({ ip: '203.0.113.7', reason: 'cc', expires_at: noon + 5 * 60_000 });
    // Off: the same flood passes.
    const off = policyWith();
    const offState = createFloodState(off);
    for (let i = 0; i < 400; i++) expect(checkCc(off, offState, facts())).toBeNull();
  });

  it('loose mode asks for human verification (redirect or click) and lets a verified client by', () => {
    const policy = policyWith((s) => void (s.protect.cc = { enabled: true, mode: 'loose', verification: 'click', per_minute: 1, block_minutes: 5 }));
    const state = createFloodState(policy);
    expect(checkCc(policy, state, facts())).toBeNull();
    expect(checkCc(policy, state, facts())).toEqual({ decision: { action: 'challenge', rule: 'protect.cc.click' }, intercept: null });
    expect(checkCc(policy, state, facts({ verifiedHuman: true }))).toBeNull();
  });

  it('404 scan: more than N 404 answers in a minute intercepts; other statuses do not count', () => {
    const policy = policyWith((s) => void (s.protect.scan_404 = { enabled: true, per_minute: 2, block_minutes: 10 }));
    const state = createFloodState(policy);
    expect(record404(policy, state, '192.0.2.9', 404, noon)).toBeNull();
    expect(record404(policy, state, '192.0.2.9', 200, noon)).toBeNull();
    expect(record404(policy, state, '192.0.2.9', 404, noon)).toBeNull();
    expect(record404(policy, state, '192.0.2.9', 404, noon)).toMatchObject({ reason: 'scan_404', expires_at: noon + 600_000 });
    expect(record404(policyWith(), createFloodState(policyWith()), '192.0.2.9', 404, noon)).toBeNull();
  });
});
