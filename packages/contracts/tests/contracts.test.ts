import { describe, expect, it } from 'vitest';
import {
  can, isValidPassword, licenceCodeSchema, loadLevel, messages, permissionKeys, permissionsOf, pickLanguage,
  roleCan, sections, translate, accountNamePattern, tabPermission, registerBodySchema,
} from '../src/index.ts';

describe('validators', () => {
  it('accepts account names of 4-20 letters, digits, - and _', () => {
    for (const ok of ['abcd', 'Admin_1', 'a-b_c', 'x'.repeat(20)]) expect(accountNamePattern.test(ok)).toBe(true);
    for (const bad of ['abc', 'x'.repeat(21), 'a b c', 'ab.cd', 'ádmin', '']) expect(accountNamePattern.test(bad)).toBe(false);
  });
  it('accepts passwords of 6-50 chars that are neither only letters nor only digits', () => {
    for (const ok of ['abc123', 'Passw0rd!', '!!!!!!', 'a1' + 'x'.repeat(48)]) expect(isValidPassword(ok)).toBe(true);
    for (const bad of ['abc12', 'abcdefg', '1234567', 'a1' + 'x'.repeat(49), 'abc 123', '密码密码12']) expect(isValidPassword(bad)).toBe(false);
  });
  it('normalises licence codes to AAA-BBB upper case and refuses other shapes', () => {
    expect(licenceCodeSchema.parse(' abc-d3f ')).toBe('ABC-D3F');
    for (const bad of ['ABCDEF', 'AB-CDE', 'ABC-DEFG', 'AB$-DEF']) expect(licenceCodeSchema.safeParse(bad).success).toBe(false);
  });
  it('says which rule a registration body breaks', () => {
    const missing = registerBodySchema.safeParse({ key: '', agree: true });
    expect(missing.success || missing.error.issues[0]?.message).toBe('licence_code_required');
    const unticked = registerBodySchema.safeParse({ key: 'ABC-DEF', agree: false });
    expect(unticked.success || unticked.error.issues[0]?.message).toBe('licence_agree_required');
  });
});

describe('roles', () => {
  it('gives the admin every key and the technician every key but system settings', () => {
    for (const key of permissionKeys) {
      expect(roleCan('admin', key, 'edit')).toBe(true);
      expect(roleCan('technician', key, 'edit')).toBe(key !== 'system');
    }
  });
  it('lets the auditor read the event log and nothing else', () => {
    expect(roleCan('auditor', 'log', 'get')).toBe(true);
    expect(roleCan('auditor', 'log', 'delete')).toBe(false);
    expect(roleCan('auditor', 'home', 'get')).toBe(false);
    expect(permissionsOf('other')).toEqual([]);
    expect(can([], 'home', 'get')).toBe(false);
  });
});

describe('route table', () => {
  it('has a unique path per section and a default tab that exists', () => {
    expect(new Set(sections.map((s) => s.path)).size).toBe(sections.length);
    for (const s of sections) if (s.defaultTab) expect(s.tabs.map((t) => t.key)).toContain(s.defaultTab);
  });
  it('uses audit_patch for the patch tab and log_photo for the photo tab', () => {
    const audit = sections.find((s) => s.key === 'audit')!;
    const log = sections.find((s) => s.key === 'log')!;
    expect(tabPermission(audit, 'patch')).toBe('audit_patch');
    expect(tabPermission(audit, 'system')).toBe('audit');
    expect(tabPermission(log, 'photo')).toBe('log_photo');
  });
});

describe('messages', () => {
  it('has every key in both languages', () => {
    expect(Object.keys(messages['en-US']).sort()).toEqual(Object.keys(messages['zh-CN']).sort());
    for (const lang of ['zh-CN', 'en-US'] as const) for (const v of Object.values(messages[lang])) expect(v.trim()).not.toBe('');
  });
  it('fills placeholders', () => {
    expect(translate('en-US', 'login_failed_left', { left: 3 })).toBe('Wrong account or password, 3 attempts left today');
  });
  it('picks a language from Accept-Language', () => {
    expect(pickLanguage('en-GB,en;q=0.9')).toBe('en-US');
    expect(pickLanguage('zh-TW')).toBe('zh-CN');
    expect(pickLanguage('fr-FR')).toBeUndefined();
  });
});

describe('load level', () => {
  it('grades load per core', () => {
    expect(loadLevel(0.5, 2)).toBe('light');
    expect(loadLevel(1.9, 2)).toBe('heavy');
    expect(loadLevel(2.5, 2)).toBe('too_heavy');
  });
});
