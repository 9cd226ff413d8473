import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultModuleFlags, type AccountChange, type AccountPrivileged, type AccountStatus } from '@rampart/contracts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

const files = (state: AccountStatus['files'][number]['state'], locked = true): AccountStatus['files'] =>
  (['passwd', 'shadow', 'group', 'gshadow'] as const).map((file) => ({ file, path: `/etc/${file}`, locked, state }));
const status = (extra: Partial<AccountStatus> = {}): AccountStatus => ({
  enabled: true, settings: { lock_files: true, locked_groups: [] }, unlocked_until: null, files: files('partial'),
  backend: 'fanotify', user_create_blocked: false, notes: ['account_fanotify_rename'], ...extra,
});
const privileged = (extra: Partial<AccountPrivileged['root_login']> = {}): AccountPrivileged => ({
  accounts: [
    { name: 'root', uid: 0, shell: '/bin/bash', reasons: ['uid0'], password: true, keys: false },
    { name: 'alice', uid: 1000, shell: '/bin/bash', reasons: ['sudo'], password: false, keys: true },
  ],
  groups: ['adm', 'sudo'],
  root_login: { permit: 'yes', dropin: false, dropin_path: '/etc/ssh/sshd_config.d/50-rampart-root-login.conf', fallback_accounts: ['alice'], ...extra },
});
const done: AccountChange = { changed: true, refused: null };

async function openAccount(handlers: Record<string, Handler> = {}, role: 'admin' | 'technician' = 'admin') {
  const api = signedInAs(role, {
    info: { module_list: { ...defaultModuleFlags(), account: 1 } },
    handlers: {
      'GET /account/status': ok(status()),
      'GET /account/privileged': ok(privileged()),
      'POST /account/settings': ok(done, 'Saved'),
      'POST /account/unlock': ok(done, 'Unlocked'),
      'POST /account/relock': ok(done, 'Locked'),
      'POST /account/root_login': ok(done, 'Done'),
      ...handlers,
    },
  });
  renderApp('/account/index');
  await screen.findByTestId('account-page');
  return api;
}

describe('user protection page', () => {
  it('replaces the placeholder: says honestly that fanotify does not stop user creation', async () => {
    await openAccount();
    expect(screen.getByTestId('account-backend').textContent).toBe('Enforced with fanotify (fallback)');
    expect(screen.getByTestId('account-user-create').textContent).toBe('Creating users is blocked only in part');
    expect(screen.getByTestId('account-note-account_fanotify_rename').textContent).toContain('is NOT stopped');
    expect(screen.getByTestId('account-file-state-passwd').textContent).toBe('Partly enforced');
    expect(screen.queryByText(/not in this build/i)).toBeNull();
  });

  it('saves the lock settings as the contract body and unlocks for N minutes', async () => {
    const api = await openAccount();
    fireEvent.click(screen.getByTestId('account-lock-files'));
    fireEvent.click(screen.getByTestId('account-save'));
    await waitFor(() => expect(api.callsTo('POST /account/settings')).toHaveLength(1));
    expect(api.callsTo('POST /account/settings')[0]!.body).toEqual({ settings: { lock_files: false, locked_groups: [] } });

    fireEvent.change(screen.getByTestId('account-unlock-minutes'), { target: { value: '15' } });
    fireEvent.click(screen.getByTestId('account-unlock'));
    await waitFor(() => expect(api.callsTo('POST /account/unlock')).toHaveLength(1));
    expect(api.callsTo('POST /account/unlock')[0]!.body).toEqual({ minutes: 15 });
  });

  it('while unlocked shows when it locks again and offers to lock now', async () => {
    const until = new Date(2026, 10, 28, 12, 30).getTime();
    const api = await openAccount({ 'GET /account/status': ok(status({ unlocked_until: until, files: files('off'), notes: [] })) });
    expect(screen.getByTestId('account-unlocked-until').textContent).toContain(new Date(until).toLocaleString());
    expect(screen.queryByTestId('account-unlock')).toBeNull();
    fireEvent.click(screen.getByTestId('account-relock'));
    await waitFor(() => expect(api.callsTo('POST /account/relock')).toHaveLength(1));
  });

  it('lists privileged accounts and disables root login only after confirming; no fallback → the button is off', async () => {
    const api = await openAccount();
    expect(screen.getByTestId('account-login-alice').textContent).toBe('SSH key');
    expect(screen.getByTestId('account-root-fallback').textContent).toBe('alice');
    fireEvent.click(screen.getByTestId('account-root-disable'));
    fireEvent.click(await screen.findByTestId('account-root-disable-confirm'));
    await waitFor(() => expect(api.callsTo('POST /account/root_login')).toHaveLength(1));
    expect(api.callsTo('POST /account/root_login')[0]!.body).toEqual({ disable: true });
  });

  it('without another sudo account the disable button is off and a warning says why; in Chinese too', async () => {
    await openAccount({ 'GET /account/privileged': ok(privileged({ fallback_accounts: [] })) });
    expect((screen.getByTestId('account-root-disable') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('account-root-no-fallback').textContent).toContain('No other sudo account');
    await switchToChinese();
    expect((await screen.findByTestId('account-backend')).textContent).toBe('fanotify 执行（后备机制）');
  });
});
