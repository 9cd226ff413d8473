import { describe, expect, it } from 'vitest';
import { applyKeywordFilter, frameHeaders, isFilterableBody, rewriteResponseHeaders, rewriteSetCookie, shouldAlert, snapshotBytes } from '../../src/policy/index.ts';
import { policyWith } from './support.ts';

describe('cookie attributes', () => {
  it('adds HttpOnly once and sets SameSite, replacing the application value', () => {
    expect(rewriteSetCookie('sid=1; Path=/', { http_only: false, same_site: 'off' })).toBe('sid=1; Path=/');
    expect(rewriteSetCookie('sid=1; Path=/', { http_only: true, same_site: 'off' })).toBe('sid=1; Path=/; HttpOnly');
    expect(rewriteSetCookie('sid=1; httponly', { http_only: true, same_site: 'off' })).toBe('sid=1; httponly');
    expect(rewriteSetCookie('sid=1; SameSite=None; Secure', { http_only: false, same_site: 'strict' })).toBe('sid=1; Secure; SameSite=Strict');
    expect(rewriteSetCookie('sid=a=b; Expires=Wed, 21 Oct 2026 07:28:00 GMT', { http_only: true, same_site: 'lax' })).toBe(
      'sid=a=b; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly; SameSite=Lax',
    );
  });

  it('applies to every Set-Cookie of a response, leaving other headers alone', () => {
    const policy = policyWith((s) => void (s.base.cookie = { http_only: true, same_site: 'lax' }));
    const headers: [string, string][] = [
      ['Content-Type', 'text/html'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2; HttpOnly'],
    ];
    expect(rewriteResponseHeaders(policyWith(), headers)).toEqual(headers);
    expect(rewriteResponseHeaders(policy, headers)).toEqual([
      ['Content-Type', 'text/html'],
      ['Set-Cookie', 'a=1; HttpOnly; SameSite=Lax'],
      ['set-cookie', 'b=2; HttpOnly; SameSite=Lax'],
    ]);
  });
});

describe('X-Frame-Options', () => {
  it('deny, sameorigin, allow-from domains; an application header of its own is kept', () => {
    expect(frameHeaders(policyWith(), [])).toEqual([]);
    expect(frameHeaders(policyWith((s) => void (s.base.frame_options = { mode: 'deny', domains: [] })), [])).toEqual([['X-Frame-Options', 'DENY']]);
    const same = policyWith((s) => void (s.base.frame_options = { mode: 'sameorigin', domains: [] }));
    expect(frameHeaders(same, [])).toEqual([['X-Frame-Options', 'SAMEORIGIN']]);
    expect(frameHeaders(same, [['x-frame-options', 'DENY']])).toEqual([]);
    const from = policyWith((s) => void (s.base.frame_options = { mode: 'allow_from', domains: ['a.example', 'b.example'] }));
    expect(frameHeaders(from, [])).toEqual([
      ['X-Frame-Options', 'ALLOW-FROM https://a.example'],
      ['Content-Security-Policy', "frame-ancestors 'self' https://a.example http://a.example https://b.example http://b.example"],
    ]);
  });
});

describe('filter library on response bodies', () => {
  it('rewrites text bodies only', () => {
    const policy = policyWith((s) => void (s.sql.keywords.filter = { enabled: true, rules: ['internal-host==[hidden]'] }));
    expect(applyKeywordFilter(policy.keywords, 'error at Internal-Host:8080')).toBe('error at [hidden]:8080');
    expect(isFilterableBody('text/html; charset=utf-8', null)).toBe(true);
    expect(isFilterableBody('application/json', 'identity')).toBe(true);
    expect(isFilterableBody('text/html', 'gzip')).toBe(false);
    expect(isFilterableBody('image/png', null)).toBe(false);
  });
});

describe('base tab helpers', () => {
  it('alert area: all, or unknown areas only', () => {
    const all = policyWith((s) => void (s.base.alert = { enabled: true, area: 'all', methods: ['email'] }));
    const unknown = policyWith((s) => void (s.base.alert = { enabled: true, area: 'unknown', methods: ['email'] }));
    expect(shouldAlert(policyWith(), [])).toBe(false);
    expect(shouldAlert(all, ['CN'])).toBe(true);
    expect(shouldAlert(unknown, ['CN'])).toBe(false);
    expect(shouldAlert(unknown, [])).toBe(true);
  });

  it('snapshot size: 0 keeps everything, off keeps nothing', () => {
    expect(snapshotBytes(policyWith((s) => void (s.request.limits.snapshot_bytes = 0)))).toBe(0);
    expect(snapshotBytes(policyWith((s) => void (s.base.snapshot.enabled = false)))).toBeNull();
  });
});
