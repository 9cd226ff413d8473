import { describe, expect, it } from 'vitest';
import {
  encodePanelChanges, eventParamsSchema, isSecretField, panelActionNames, panelFieldNames, renderEvent, renderPanelChanges, type PanelChange,
} from '../src/index.ts';

describe('administrative actions in the event log', () => {
  it('renders an action with its target, its changes and how it ended, in both languages', () => {
    const params = {
      account: 'admin', action: 'system.user_edit', module: 'system', result: 'ok', target: 'ops01',
      changes: encodePanelChanges([['role', 'technician', 'auditor'], ['password'], ['remark', 'old', '']]),
    };
    expect(renderEvent('panel.action', params, 'zh-CN').content).toBe('admin 修改了面板账号 ops01：角色：技术员 → 审计员；密码：已修改（不显示）；备注：old → （空）（成功）');
    expect(renderEvent('panel.action', params, 'en-US').content).toBe('admin edited panel account ops01: role: Technician → Auditor; password: changed (not shown); remark: old → (none) (done)');
  });

  it('reads an action without changes, an unknown action and a record of a raw call as words, never as a URL', () => {
    expect(renderEvent('panel.action', { account: 'a', action: 'audit.start', module: 'audit', result: 'failed' }, 'en-US').content).toBe('a started a security audit (failed)');
    expect(renderEvent('panel.action', { account: 'a', action: 'POST /tamper/next', module: 'tamper', result: 'ok' }, 'zh-CN').content).toBe('a 修改了防篡改设置（成功）');
    expect(renderEvent('panel.action', { account: 'a', action: 'POST /magapi/firewall/rules/add', result: 'ok' }, 'en-US').content).toBe('a changed Firewall settings (done)');
    expect(renderEvent('panel.action', { account: 'a', action: 'POST /magapi/whatever', result: 'ok' }, 'en-US').content).toBe('a changed System settings (done)');
  });

  it('keeps the stored changes within one event parameter, counting what did not fit', () => {
    const many: PanelChange[] = Array.from({ length: 40 }, (_, i) => [`field_${i}`, 'x'.repeat(200)]);
    const text = encodePanelChanges(many);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(eventParamsSchema.safeParse({ changes: text }).success).toBe(true);
    const decoded = JSON.parse(text) as unknown[][];
    const last = decoded.at(-1)!;
    expect(last[0]).toBe('+');
    expect(decoded.length - 1 + Number(last[1])).toBe(40);
    expect(String(decoded[0]![1]).length).toBeLessThanOrEqual(120);
    expect(renderPanelChanges(text, 'en-US')).toMatch(/; and \d+ more$/);
    expect(renderPanelChanges('not json', 'en-US')).toBe('');
  });

  it('knows secrets by name: passwords, tokens, TOTP, keys, webhooks', () => {
    for (const name of ['password', 'smtp_password', 'access_key_secret', 'secret_key', 'token', 'totp_secret', 'key', 'webhook', 'code', 'sealed_password'])
      expect(isSecretField(name), name).toBe(true);
    for (const name of ['direction', 'ports', 'ips', 'priority', 'keep_days', 'server_alias', 'remark', 'monkey'])
      expect(isSecretField(name), name).toBe(false);
  });

  it('names every action in both languages, and the firewall rule and list fields', () => {
    for (const [key, texts] of Object.entries(panelActionNames)) {
      expect(texts['zh-CN'], key).not.toBe('');
      expect(texts['en-US'], key).not.toBe('');
    }
    for (const field of ['direction', 'ports', 'ips', 'action', 'priority', 'addresses', 'expires_at']) expect(panelFieldNames[field], field).toBeDefined();
  });
});
