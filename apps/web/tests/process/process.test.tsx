import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProcessChange, ProcessRule, ProcessStatus } from '@rampart/contracts';
import { type } from '../helpers/antd.ts';
import { ok, refused, type ApiCall } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

const at = new Date(2025, 4, 6, 10).getTime();
const done: ProcessChange = { changed: 1, ids: [1], refused: null };
const status: ProcessStatus = { enabled: true, backend: 'lsm', net: false, net_cause: 'net_cgroup_missing', rules: 1 };
const rule = (id: number, extra: Partial<ProcessRule> = {}): ProcessRule => ({
  id, enabled: true, process: '/usr/bin/nc', deny_start: true, deny_tcp: false, deny_udp: true, allow_ips: ['10.0.0.0/8'], allow_areas: [],
  files: [{ path: '/etc', ops: ['w'], level: 5, action: 'deny' }], whitelist: [], notify: true, remark: `rule ${id}`,
  state: 'active', net_state: 'not_enforced', created_at: at, updated_at: at, ...extra,
});

async function openProcess(handlers: Record<string, ReturnType<typeof ok>> = {}) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /process/status': ok(status),
      'GET /process/rules': ok({ total: 1, list: [rule(1)] }),
      'POST /process/rules/add': ok(done, 'Saved'),
      ...handlers,
    },
  });
  renderApp('/process/index');
  await screen.findByTestId('process-rules-page');
  return api;
}

const bodies = (api: { callsTo(k: string): ApiCall[] }, key: string) => api.callsTo(key).map((c) => c.body as Record<string, unknown>);
const fieldError = (field: string) => screen.queryByTestId(`process-rule-error-${field}`)?.textContent;

describe('process protection page', () => {
  it('lists rules with their restrictions and says when the network part cannot be enforced', async () => {
    await openProcess();
    const row = await screen.findByTestId('process-rule-row-1');
    for (const text of ['/usr/bin/nc', 'Deny start', 'Deny UDP', '1 allowed', '/etc', 'Deny', 'rule 1']) expect(row.textContent).toContain(text);
    expect(screen.getByTestId('process-net-off')).toBeTruthy();
  });

  it('reads in Chinese', async () => {
    await switchToChinese();
    await openProcess();
    const row = await screen.findByTestId('process-rule-row-1');
    for (const text of ['禁止启动', '禁止 UDP', '允许 1 项', '拒绝']) expect(row.textContent).toContain(text);
  });

  it('the add form has three steps (basic, network, file access); Next checks each step and save sends the whole rule', async () => {
    const api = await openProcess();
    fireEvent.click(await screen.findByTestId('process-rule-add'));
    await screen.findByTestId('process-rule-form-step-1');
    type('process-rule-process', '/usr/*/nc');
    fireEvent.click(screen.getByTestId('process-rule-next'));
    await waitFor(() => expect(fieldError('process')).toBe('Invalid process path: * may stand only at the start or the end'));
    expect(screen.queryByTestId('process-rule-form-step-2')).toBeNull();
    type('process-rule-process', '/usr/bin/nc');
    fireEvent.click(screen.getByTestId('process-rule-deny-start'));
    fireEvent.click(screen.getByTestId('process-rule-next'));
    await screen.findByTestId('process-rule-form-step-2');
    fireEvent.click(screen.getByTestId('process-rule-deny-tcp'));
    fireEvent.click(screen.getByTestId('process-rule-next'));
    await screen.findByTestId('process-rule-form-step-3');
    fireEvent.click(screen.getByTestId('process-file-add'));
    type('process-file-path-0', '/etc/shadow');
    fireEvent.click(screen.getByTestId('process-rule-save'));
    await waitFor(() => expect(fieldError('files.0.level')).toBe('Enter the level'));
    type('process-file-level-0', '7');
    fireEvent.click(screen.getByTestId('process-file-op-0-r'));
    fireEvent.click(screen.getByTestId('process-rule-save'));
    await waitFor(() => expect(bodies(api, 'POST /process/rules/add')).toHaveLength(1));
    expect(bodies(api, 'POST /process/rules/add')[0]).toEqual({
      rule: {
        enabled: true, process: '/usr/bin/nc', deny_start: false, deny_tcp: true, deny_udp: false, allow_ips: [], allow_areas: [],
        files: [{ path: '/etc/shadow', ops: ['r', 'd', 'n', 'w'], level: 7, action: 'deny' }], whitelist: [], notify: true, remark: '',
      },
    });
    await waitFor(() => expect(screen.queryByTestId('process-rule-form-step-3')).toBeNull());
  });

  it('a rule that restricts nothing is refused on save and the form goes back to step 1', async () => {
    const api = await openProcess();
    fireEvent.click(await screen.findByTestId('process-rule-add'));
    type('process-rule-process', '/usr/bin/nc');
    fireEvent.click(screen.getByTestId('process-rule-deny-start'));
    fireEvent.click(screen.getByTestId('process-rule-next'));
    fireEvent.click(await screen.findByTestId('process-rule-next'));
    fireEvent.click(await screen.findByTestId('process-rule-save'));
    await screen.findByTestId('process-rule-form-step-1');
    await waitFor(() => expect(fieldError('process')).toMatch(/^Choose at least one restriction/));
    expect(bodies(api, 'POST /process/rules/add')).toHaveLength(0);
  });

  it('a server refusal of a network field takes the form back to step 2 with the message', async () => {
    await openProcess({ 'POST /process/rules/add': refused('Invalid address', 'rule.allow_ips.0') });
    fireEvent.click(await screen.findByTestId('process-rule-add'));
    type('process-rule-process', '/usr/bin/nc');
    fireEvent.click(screen.getByTestId('process-rule-next'));
    fireEvent.click(await screen.findByTestId('process-rule-next'));
    fireEvent.click(await screen.findByTestId('process-rule-save'));
    await screen.findByTestId('process-rule-form-step-2');
    await waitFor(() => expect(fieldError('allow_ips')).toBe('Invalid address'));
  });
});
