import { describe, expect, it } from 'vitest';
import { defaultTrojanSettings } from '@rampart/contracts';
import { checkPaths, checkSettings, draftOf } from '../../src/pages/trojan/trojanForm.ts';

/* The trojan forms' client-side checks: the server's schemas and words, a line named where it helps. */

const line = (n: number, message: string) => `#${n} ${message}`;

describe('trojan settings form', () => {
  it('round-trips the settings through the draft', () => {
    expect(checkSettings(draftOf(defaultTrojanSettings), 'en-US', line)).toEqual({ settings: defaultTrojanSettings });
  });

  it('names the whitelist line without * and keeps each field\'s message in the page\'s language', () => {
    const draft = { ...draftOf(defaultTrojanSettings), whitelist: '/var/www/cache\n\nvendor/cache', sizeLimitKb: 0, scheduleTime: '7:5', extensions: ['.php', ' '] };
    const checked = checkSettings(draft, 'zh-CN', line);
    expect(checked).toEqual({
      errors: {
        whitelist: '#2 白名单的部分路径必须包含 *，完整路径须以 / 开头',
        sizeLimitKb: '文件大小阈值须为 1-102400 KB 的整数',
        scheduleTime: '时间格式为 HH:MM（24 小时制）',
      },
    });
    // A leading dot is forgiven; blank tags are dropped.
    const ok = checkSettings({ ...draftOf(defaultTrojanSettings), extensions: ['.php', ' ', 'jsp'], whitelist: '*/vendor/*' }, 'en-US', line);
    expect(ok).toEqual({ settings: { ...defaultTrojanSettings, extensions: ['php', 'jsp'], whitelist: ['*/vendor/*'] } });
    expect(checkSettings({ ...draftOf(defaultTrojanSettings), isolateRetentionDays: null }, 'en-US', line)).toEqual({
      errors: { isolateRetentionDays: 'Days to keep isolated files: a whole number from 0 to 3650 (0 keeps them forever)' },
    });
  });
});

describe('audit paths', () => {
  it('wants absolute paths, one per line', () => {
    expect(checkPaths('\n /var/www \n/srv/site\n', 'en-US', line)).toEqual({ paths: ['/var/www', '/srv/site'] });
    expect(checkPaths('  ', 'en-US', line)).toEqual({ error: 'Choose the paths to scan' });
    expect(checkPaths('/var/www\nsite/../x', 'en-US', line)).toEqual({ error: '#2 The path must be absolute (start with /) and must not contain ..' });
  });
});
