import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken } from '../src/storage/token.ts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } });

async function openModal(handlers = {}) {
  const api = signedInAs('admin', { handlers });
  const view = renderApp('/dashboard');
  fireEvent.click(await screen.findByTestId('change-password'));
  await screen.findByTestId('password-old');
  return { api, view };
}

describe('change password', () => {
  it('shows the username read-only', async () => {
    await openModal();
    expect(input('password-username').value).toBe('admin');
    expect(input('password-username').readOnly).toBe(true);
  });

  it('asks for each empty field with its own prompt and posts nothing', async () => {
    const { api } = await openModal();
    fireEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Please enter the old password')).toBeTruthy();
    expect(screen.getByText('Please enter the new password')).toBeTruthy();
    expect(screen.getByText('Please enter the new password again')).toBeTruthy();
    expect(api.callsTo('POST /setpwd')).toHaveLength(0);
  });

  it('rejects a new password that is only digits, and a confirmation that does not match', async () => {
    const { api } = await openModal();
    type('password-old', 'old-pass1');
    type('password-new', '12345678');
    type('password-confirm', '12345679');
    fireEvent.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Passwords are 6-50 characters and not only letters or only digits')).toBeTruthy();
    expect(screen.getByText('The two new passwords do not match')).toBeTruthy();
    expect(api.callsTo('POST /setpwd')).toHaveLength(0);
  });

  it('on success posts /setpwd, forgets the token and goes to sign-in', async () => {
    const { api, view } = await openModal({ 'POST /setpwd': ok(null) });
    type('password-old', 'old-pass1');
    type('password-new', 'New-pass2');
    type('password-confirm', 'New-pass2');
    fireEvent.click(screen.getByTestId('password-submit'));
    await waitFor(() => expect(view.location()).toBe('/user/login'));
    expect(api.callsTo('POST /setpwd').map((c) => c.body)).toEqual([{ username: 'admin', old: 'old-pass1', new: 'New-pass2', confirm: 'New-pass2' }]);
    expect(getToken()).toBeNull();
  });

  it('keeps the user signed in and the form open when the server refuses', async () => {
    const { view } = await openModal({ 'POST /setpwd': { body: { code: 2, msg: 'The old password is wrong' } } });
    type('password-old', 'wrong-1');
    type('password-new', 'New-pass2');
    type('password-confirm', 'New-pass2');
    fireEvent.click(screen.getByTestId('password-submit'));
    expect((await screen.findAllByText('The old password is wrong')).length).toBeGreaterThan(0);
    expect(getToken()).toBe('test-token');
    expect(view.location()).toBe('/dashboard');
    expect(input('password-old').value).toBe('wrong-1');
  });
});
