import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditProcess, AuditUser } from '@rampart/contracts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

/* The audit's user and process tabs against a mocked console: columns, finding tags, explanations, the filter, the detail. */

// The first render loads the lazy page module, which takes seconds on a busy machine.
const slow = { timeout: 40_000 };

const at = new Date(2026, 5, 14, 9, 30).getTime();
const user = (name: string, extra: Partial<AuditUser> = {}): AuditUser => ({
  name, uid: 1000, gid: 1000, group: name, groups: [], status: 'normal', hash_kind: 'yescrypt', description: '', home: `/home/${name}`, shell: '/bin/bash',
  last_login: { at: null, from: null, known: true }, created_at: null, sudo: false, remote: { ssh: 'allowed', methods: ['key'], rule: null }, findings: [], ...extra,
});
const toor = user('toor', { uid: 0, gid: 0, group: 'root', sudo: true, findings: [{ kind: 'uid0_duplicate', level: 'danger', detail: 'uid 0 (/etc/passwd:3)' }] });
const admin = user('admin', { groups: ['sudo'], description: 'Admin', sudo: true, last_login: { at, from: '192.0.2.7', known: true }, remote: { ssh: 'allowed', methods: ['key', 'password'], rule: null } });
const proc = (pid: number, extra: Partial<AuditProcess> = {}): AuditProcess => ({
  pid, name: 'sleep', user: 'root', uid: 0, path: '/usr/bin/sleep', deleted: false, cmdline: 'sleep 30', start_time: at, parent: { pid: 1, name: 'systemd' },
  modules: ['/usr/lib/x86_64-linux-gnu/libc.so.6'], modules_total: 1, listening: [], packaged: true, findings: [], ...extra,
});
const sneaky = proc(4242, { name: 'kworker', path: '/tmp/.x/kworker', deleted: true, packaged: false, modules: [], modules_total: 3, findings: [{ kind: 'exe_deleted', level: 'danger', detail: '/tmp/.x/kworker' }, { kind: 'exe_in_temp', level: 'danger', detail: '/tmp/.x/kworker' }] });
const page = <T,>(list: T[]) => ok({ available: true, total: list.length, findings: { danger: 2, warning: 0, hint: 0 }, list });

function open(path: string, handlers: Record<string, Handler>) {
  const api = signedInAs('admin', { handlers });
  renderApp(path);
  return api;
}

describe('the user audit tab', () => {
  it('shows each account with status, group, last login, remote login and findings; explains them; filters', slow, async () => {
    const api = open('/audit/account', { 'GET /audit/account/list': page([toor, admin]) });
    const row = await screen.findByTestId('audit-account-row-admin', {}, { timeout: 20_000 });
    for (const text of ['admin', 'sudo', 'Normal', 'Password: yescrypt', 'admin, sudo', '192.0.2.7', 'Admin', 'SSH allowed', 'key', 'password']) expect(row.textContent).toContain(text);
    expect(screen.getByTestId('audit-account-findings-toor-uid0_duplicate').textContent).toBe('Second UID 0');
    expect(screen.getByTestId('audit-account-findings-toor-uid0_duplicate').getAttribute('data-level')).toBe('danger');
    expect(screen.getByTestId('audit-account-summary').textContent).toBe('Findings: 2 danger · 0 warning · 0 hint');
    fireEvent.click(within(screen.getByTestId('audit-account-row-toor')).getByRole('button'));
    const detail = await screen.findByTestId('audit-account-detail-toor');
    expect(detail.textContent).toContain('root under another name');
    expect(detail.textContent).toContain('uid 0 (/etc/passwd:3)');
    const only = screen.getByTestId('audit-account-findings-only');
    fireEvent.click(only.tagName === 'INPUT' ? only : only.querySelector('input')!);
    await waitFor(() => expect(api.callsTo('GET /audit/account/list').at(-1)!.query.get('findings_only')).toBe('1'));
  });

  it('says what an empty list means', slow, async () => {
    open('/audit/account', { 'GET /audit/account/list': page([]) });
    expect((await screen.findByTestId('audit-account-empty-text', {}, { timeout: 20_000 })).textContent).toBe('No account could be read from /etc/passwd.');
  });
});

describe('the process audit tab', () => {
  it('reads in Chinese: name, user, path, parent, modules, findings; the expanded row lists every library from the detail call', slow, async () => {
    await switchToChinese();
    const api = open('/audit/process', {
      'GET /audit/process/list': page([sneaky, proc(7)]),
      'GET /audit/process/detail': ok({ ...sneaky, modules: ['/tmp/.x/libevil.so', '/lib/libc.so.6', '/lib/libm.so.6'] }),
    });
    const row = await screen.findByTestId('audit-process-row-4242', {}, { timeout: 20_000 });
    for (const text of ['kworker', 'PID 4242', 'root', '/tmp/.x/kworker', '已删除', 'systemd (1)', '3 个库']) expect(row.textContent).toContain(text);
    expect(screen.getByTestId('audit-process-findings-4242').textContent).toBe('程序文件已删除从临时目录运行');
    fireEvent.click(within(row).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('audit-process-modules-4242').textContent).toContain('/tmp/.x/libevil.so'));
    expect(api.callsTo('GET /audit/process/detail').at(-1)!.query.get('pid')).toBe('4242');
    expect(screen.getByTestId('audit-process-detail-4242').textContent).toContain('不属于任何软件包');
  });
});
