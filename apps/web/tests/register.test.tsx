import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, type Handler } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';

const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });

async function openRegister(register: Handler) {
  const api = mockApi({
    'POST /register': register,
    'GET /licence': ok({ title: 'Rampart Licence Agreement', text: 'You may use this software on one server.' }),
  });
  const view = renderApp('/user/register');
  await screen.findByTestId('register-key');
  return { api, view };
}

const registered = ok({ status: 'registered', username: 'admin', password: 'Xy7-secret', expires_at: new Date(2027, 5, 1).getTime() });

describe('register form validation', () => {
  it('an empty key asks for the licence code; an unticked agreement asks to agree', async () => {
    const { api } = await openRegister(registered);
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Please enter the licence code')).toBeTruthy();
    expect(screen.getByText('Please Agree to the License Agreement')).toBeTruthy();
    expect(api.callsTo('POST /register')).toHaveLength(0);
  });

  it('a key not in the AAA-BBB format is refused', async () => {
    const { api } = await openRegister(registered);
    type('register-key', 'ABCD-12');
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('The licence code looks like AAA-BBB')).toBeTruthy();
    expect(api.callsTo('POST /register')).toHaveLength(0);
  });

  it('shows the agreement text from GET /licence', async () => {
    await openRegister(registered);
    fireEvent.click(screen.getByTestId('register-licence-link'));
    expect((await screen.findByTestId('licence-text')).textContent).toBe('You may use this software on one server.');
  });
});

describe('register flow', () => {
  it('shows account, password (once) and expiry after success', async () => {
    const { api } = await openRegister(registered);
    type('register-key', 'ABC-234');
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    expect((await screen.findByTestId('register-password')).textContent).toBe('Xy7-secret');
    expect(screen.getByTestId('register-username').textContent).toBe('admin');
    expect(screen.getByTestId('register-expiry').textContent).toBe('2027-06-01');
    expect(screen.getByTestId('register-once-warning').textContent).toContain('shown only this once');
    expect(api.callsTo('POST /register').map((c) => c.body)).toEqual([{ key: 'ABC-234', agree: true }]);
  });

  it('says the password is unchanged when the server returns none', async () => {
    await openRegister(ok({ status: 'registered', username: 'admin', password: null, expires_at: Date.now() }));
    type('register-key', 'ABC-234');
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByTestId('register-password-unchanged')).toBeTruthy();
    expect(screen.queryByTestId('register-password')).toBeNull();
    expect(screen.queryByTestId('register-once-warning')).toBeNull();
  });

  it('need_confirm asks about the relocation, then resubmits with confirm_move', async () => {
    const { api } = await openRegister((call) =>
      (call.body as { confirm_move?: boolean }).confirm_move ? registered : ok({ status: 'need_confirm', transfers_left: 2 }),
    );
    type('register-key', 'abc-234');
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    expect((await screen.findAllByText(/uses one relocation, 2 left/)).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('register-password')).toBeNull();
    fireEvent.click(screen.getByTestId('register-move-confirm'));
    expect(await screen.findByTestId('register-password')).toBeTruthy();
    expect(api.callsTo('POST /register').map((c) => c.body)).toEqual([
      { key: 'abc-234', agree: true },
      { key: 'abc-234', agree: true, confirm_move: true },
    ]);
  });

  it('a failure shows the message with Retry, which returns to the form', async () => {
    await openRegister({ status: 400, body: { code: 2, msg: 'No such licence code' } });
    type('register-key', 'ZZZ-999');
    fireEvent.click(screen.getByTestId('register-agree'));
    fireEvent.click(screen.getByTestId('register-submit'));
    expect((await screen.findByTestId('register-error')).textContent).toBe('No such licence code');
    expect(screen.getByText('Software registration failed, check your authorization account and password')).toBeTruthy();
    fireEvent.click(screen.getByTestId('register-retry'));
    await waitFor(() => expect(screen.getByTestId('register-key')).toBeTruthy());
  });
});
