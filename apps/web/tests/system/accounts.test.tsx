import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { permissionsOf, type OnlineTerminal, type PanelAccount } from '@rampart/contracts';
import { i18next } from '../../src/i18n/index.ts';
import { choose, type } from '../helpers/antd.ts';
import { ok, refused, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { spyFeedback } from '../helpers/spyFeedback.ts';

const at = (day: number, hour = 10) => new Date(2026, 10, day, hour, 0, 0).getTime();

function account(id: number, extra: Partial<PanelAccount> = {}): PanelAccount {
  return {
    id, username: `user${id}`, role: 'technician', status: 1, remark: '', created_at: at(1),
    last_login_at: null, last_login_ip: null, online: false, self: false, ...extra,
  };
}

const accounts = [
  account(1, { username: 'admin', role: 'admin', self: true, online: true, last_login_at: at(20, 9), last_login_ip: '127.0.0.1' }),
  account(2, { username: 'night-tech', remark: 'night shift', online: true, last_login_at: at(21), last_login_ip: '192.0.2.7' }),
  account(3, { username: 'auditor_1', role: 'auditor', status: 0 }),
];

function terminal(id: string, extra: Partial<OnlineTerminal> = {}): OnlineTerminal {
  return {
    id, user_id: 2, username: 'night-tech', role: 'technician', ip: '192.0.2.7', terminal: 'Chrome 139 / Windows 10',
    user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/139.0.0.0', login_at: at(21), expires_at: at(21, 12),
    elapsed_ms: (2 * 60 + 5) * 60_000, current: false, ...extra,
  };
}

const terminals = [
  terminal('00000000000000aa'),
  terminal('00000000000000bb', { user_id: 1, username: 'admin', role: 'admin', ip: '127.0.0.1', terminal: 'Firefox 128 / Linux', expires_at: null, elapsed_ms: 30_000, current: true }),
];

async function openAccounts(options: { handlers?: Record<string, Handler>; actions?: ('get' | 'add' | 'edit' | 'delete')[] } = {}) {
  const info = options.actions
    ? { role: { id: 'admin' as const, name: 'admin', permissions: [...permissionsOf('admin').filter((p) => p.perm_id !== 'system'), { perm_id: 'system' as const, actions: options.actions }] } }
    : {};
  const api = signedInAs('admin', {
    info,
    handlers: {
      'GET /system/user': ok({ list: accounts }),
      'GET /system/user/online/list': ok({ list: terminals }),
      'POST /system/user': ok(account(9), 'Account added'),
      'POST /system/user_edit': ok(account(2), 'Saved'),
      'POST /system/user_delete': ok(null, 'Account deleted'),
      'POST /system/user/online/logout': ok(null, 'The terminal was signed out'),
      ...options.handlers,
    },
  });
  const view = renderApp('/system/user');
  await screen.findByTestId('account-row-night-tech');
  return { api, view };
}

async function switchToChinese() {
  localStorage.setItem('rampart.lang', 'zh-CN');
  await act(() => i18next.changeLanguage('zh-CN'));
}

const fieldError = (field: string) => screen.queryByTestId(`account-error-${field}`)?.textContent;
const save = () => fireEvent.click(screen.getByTestId('account-save'));
const openAdd = async () => {
  fireEvent.click(screen.getByTestId('account-add'));
  await screen.findByTestId('account-form');
};

describe('panel accounts (system/user)', () => {
  it('lists name, role name, status switch, remark, last sign-in, IP and online state', async () => {
    const { api } = await openAccounts();
    const tech = screen.getByTestId('account-row-night-tech');
    for (const text of ['night-tech', 'Technician', 'night shift', '2026-11-21 10:00:00', '192.0.2.7', 'Online']) expect(tech.textContent).toContain(text);
    const auditor = screen.getByTestId('account-row-auditor_1');
    for (const text of ['Auditor', 'Never', 'Offline']) expect(auditor.textContent).toContain(text);
    expect(screen.getByTestId('account-switch-2').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('account-switch-3').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('account-self-1').textContent).toBe('You');
    expect(screen.getByTestId('account-row-admin').textContent).toContain('Administrator');
    expect(api.callsTo('GET /system/user')).toHaveLength(1);
  });

  it('shows role names and statuses in Chinese', async () => {
    await switchToChinese();
    await openAccounts();
    expect(screen.getByTestId('account-role-name-1').textContent).toBe('管理员');
    expect(screen.getByTestId('account-role-name-2').textContent).toBe('技术员');
    expect(screen.getByTestId('account-row-auditor_1').textContent).toContain('从未登录');
    expect(screen.getByTestId('accounts-page').textContent).toContain('在线终端');
  });

  it('adds an account with POST /system/user and closes the form', async () => {
    const { api } = await openAccounts();
    const listReads = api.callsTo('GET /system/user').length;
    await openAdd();
    type('account-username', 'new_ops');
    type('account-password', 'Ops-2026x');
    await choose('account-role', 'account-role-auditor');
    type('account-remark', ' weekend ');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/user')).toHaveLength(1));
    expect(api.callsTo('POST /system/user')[0]!.body).toEqual({ username: 'new_ops', password: 'Ops-2026x', role: 'auditor', status: 1, remark: 'weekend' });
    await waitFor(() => expect(screen.queryByTestId('account-form')).toBeNull());
    await waitFor(() => expect(api.callsTo('GET /system/user').length).toBeGreaterThan(listReads));
  });

  it('shows bad name and password on their fields and sends nothing', async () => {
    const { api } = await openAccounts();
    await openAdd();
    type('account-username', 'ab');
    type('account-password', 'onlyletters');
    save();
    await waitFor(() => expect(fieldError('username')).toBe('Account names are 4-20 letters, digits, - or _'));
    expect(fieldError('password')).toBe('Passwords are 6-50 characters and not only letters or only digits');
    type('account-password', '');
    save();
    await waitFor(() => expect(fieldError('password')).toBe('Passwords are 6-50 characters and not only letters or only digits'));
    // Typing in a field clears its message.
    type('account-username', 'good_name');
    await waitFor(() => expect(fieldError('username')).toBeUndefined());
    expect(fieldError('password')).toBeDefined();
    expect(api.callsTo('POST /system/user')).toHaveLength(0);
  });

  it('shows the messages in Chinese too', async () => {
    await switchToChinese();
    await openAccounts();
    await openAdd();
    type('account-username', 'a b');
    type('account-password', '123456');
    save();
    await waitFor(() => expect(fieldError('username')).toBe('账号须为 4-20 位字母、数字、-或_'));
    expect(fieldError('password')).toBe('密码须为 6-50 位，且不能为纯字母或纯数字');
  });

  it('puts the console\'s duplicate-name answer on the name field', async () => {
    await openAccounts({
      handlers: {
        'POST /system/user': { body: { code: 2, msg: 'Has duplicates: an account named Admin already exists', lang: 'en-US', data: { field: 'username' } } },
      },
    });
    await openAdd();
    type('account-username', 'ADMIN');
    type('account-password', 'Abc12345');
    save();
    await waitFor(() => expect(fieldError('username')).toBe('Has duplicates: an account named Admin already exists'));
    expect(screen.getByTestId('account-form')).toBeTruthy();
  });

  it('shows a refusal without a field (a lock-out rule) in the error modal, and only there', async () => {
    await openAccounts({
      handlers: { 'POST /system/user_edit': { body: { code: 2, msg: 'At least one enabled administrator account must remain', lang: 'en-US' } } },
    });
    const spies = spyFeedback();
    fireEvent.click(screen.getByTestId('account-edit-2'));
    await screen.findByTestId('account-form');
    type('account-remark', 'x');
    save();
    await waitFor(() => expect(spies.error).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('account-error-remark')).toBeNull();
    expect(screen.getByTestId('account-form')).toBeTruthy();
  });

  it('puts a field the console refused (HTTP 400) on that field, without a modal', async () => {
    await openAccounts({ handlers: { 'POST /system/user': refused('The remark can be at most 200 characters', 'remark') } });
    const spies = spyFeedback();
    await openAdd();
    type('account-username', 'fine_name');
    type('account-password', 'Abc12345');
    save();
    await waitFor(() => expect(fieldError('remark')).toBe('The remark can be at most 200 characters'));
    expect(spies.error).not.toHaveBeenCalled();
  });

  it('edits with only the changed fields; a blank password is not sent', async () => {
    const { api } = await openAccounts();
    fireEvent.click(screen.getByTestId('account-edit-2'));
    await screen.findByTestId('account-form');
    expect((screen.getByTestId('account-username') as HTMLInputElement).value).toBe('night-tech');
    expect((screen.getByTestId('account-password') as HTMLInputElement).value).toBe('');
    type('account-remark', 'day shift');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/user_edit')).toHaveLength(1));
    const call = api.callsTo('POST /system/user_edit')[0]!;
    expect(call.query.get('uid')).toBe('2');
    expect(call.body).toEqual({ remark: 'day shift' });

    fireEvent.click(await screen.findByTestId('account-edit-2'));
    await screen.findByTestId('account-form');
    type('account-password', 'N3w-pass');
    await choose('account-role', 'account-role-admin');
    save();
    await waitFor(() => expect(api.callsTo('POST /system/user_edit')).toHaveLength(2));
    expect(api.callsTo('POST /system/user_edit')[1]!.body).toEqual({ password: 'N3w-pass', role: 'admin' });
  });

  it('keeps one\'s own role and status out of reach: no switch, no delete, fixed in the form', async () => {
    await openAccounts();
    expect(screen.getByTestId('account-switch-1').hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('account-delete-1'));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByTestId('account-edit-1'));
    await screen.findByTestId('account-form');
    expect(screen.getByTestId('account-status').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('account-form').textContent).toContain('You cannot disable or delete the account you are signed in with');
  });

  it('switches an account off and on with user_edit and status alone', async () => {
    const { api } = await openAccounts();
    fireEvent.click(screen.getByTestId('account-switch-2'));
    await waitFor(() => expect(api.callsTo('POST /system/user_edit')).toHaveLength(1));
    expect(api.callsTo('POST /system/user_edit')[0]!.body).toEqual({ status: 0 });
    await waitFor(() => expect(screen.getByTestId('account-switch-3').querySelector('.ant-switch-loading-icon')).toBeNull());
    fireEvent.click(screen.getByTestId('account-switch-3'));
    await waitFor(() => expect(api.callsTo('POST /system/user_edit')).toHaveLength(2));
    expect(api.callsTo('POST /system/user_edit')[1]!.query.get('uid')).toBe('3');
    expect(api.callsTo('POST /system/user_edit')[1]!.body).toEqual({ status: 1 });
  });

  it('deletes after confirmation only', async () => {
    const { api } = await openAccounts();
    fireEvent.click(screen.getByTestId('account-delete-3'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete the account auditor_1?');
    expect(api.callsTo('POST /system/user_delete')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('account-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/user_delete')).toHaveLength(1));
    expect(api.callsTo('POST /system/user_delete')[0]!.query.get('uid')).toBe('3');
  });

  it('shows only what the role may do', async () => {
    await openAccounts({ actions: ['get'] });
    expect(screen.queryByTestId('account-add')).toBeNull();
    expect(screen.queryByTestId('account-edit-2')).toBeNull();
    expect(screen.queryByTestId('account-delete-2')).toBeNull();
    expect(screen.getByTestId('account-switch-2').hasAttribute('disabled')).toBe(true);
    expect(screen.queryByTestId('terminal-sign-out-00000000000000aa')).toBeNull();
  });
});

describe('online terminals', () => {
  it('lists client IP, terminal type, sign-in time, expiry and time online', async () => {
    await openAccounts();
    const row = await screen.findByTestId('terminal-row-00000000000000aa');
    for (const text of ['night-tech', '192.0.2.7', 'Chrome 139 / Windows 10', '2026-11-21 10:00:00', '2026-11-21 12:00:00', '2 h 5 min']) {
      expect(row.textContent).toContain(text);
    }
    const mine = screen.getByTestId('terminal-row-00000000000000bb');
    for (const text of ['This session', 'Firefox 128 / Linux', 'Never', 'under 1 min']) expect(mine.textContent).toContain(text);
  });

  it('in Chinese', async () => {
    await switchToChinese();
    await openAccounts();
    const row = await screen.findByTestId('terminal-row-00000000000000aa');
    expect(row.textContent).toContain('2 小时 5 分钟');
    expect(row.textContent).toContain('强制下线');
    expect(screen.getByTestId('terminal-row-00000000000000bb').textContent).toContain('永不过期');
  });

  it('signs a terminal out after confirmation and reads both lists again', async () => {
    const { api } = await openAccounts();
    const reads = api.callsTo('GET /system/user').length;
    fireEvent.click(await screen.findByTestId('terminal-sign-out-00000000000000aa'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Sign out night-tech from 192.0.2.7?');
    fireEvent.click(within(dialog.parentElement!.parentElement!).getByTestId('terminal-sign-out-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/user/online/logout')).toHaveLength(1));
    expect(api.callsTo('POST /system/user/online/logout')[0]!.query.get('id')).toBe('00000000000000aa');
    await waitFor(() => expect(api.callsTo('GET /system/user').length).toBeGreaterThan(reads));
  });

  it('warns before signing out one\'s own session; a 401 afterwards returns to sign-in', async () => {
    let signedOut = false;
    const { api, view } = await openAccounts({
      handlers: {
        'POST /system/user/online/logout': () => {
          signedOut = true;
          return ok(null, 'The terminal was signed out');
        },
        'GET /system/user': () => (signedOut ? { status: 401, body: { code: 2, msg: 'Please sign in again', lang: 'en-US' } } : ok({ list: accounts })),
      },
    });
    fireEvent.click(await screen.findByTestId('terminal-sign-out-00000000000000bb'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('This is your own session in this browser');
    fireEvent.click(screen.getByTestId('terminal-sign-out-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/user/online/logout')).toHaveLength(1));
    await waitFor(() => expect(view.location()).toMatch(/^\/user\/login/));
  });
});
