import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/mockApi.ts';
import { interceptEntry, listEntry, openFirewall, ruleFixture } from './helpers.ts';

const readOnly = ['query', 'get'] as const;

describe('firewall actions the role lacks are hidden', () => {
  it('rules: a read-only role sees the list but no add, bulk, edit or delete; switches are disabled', async () => {
    await openFirewall('rule_in', 'fw-rules-in-page', {
      role: 'technician',
      actions: [...readOnly],
      handlers: { 'GET /firewall/rules': ok({ total: 1, list: [ruleFixture(1)] }) },
    });
    await screen.findByTestId('fw-rule-row-1');
    for (const id of ['fw-rule-add', 'fw-rule-enable', 'fw-rule-disable', 'fw-rule-delete', 'fw-rule-edit-1', 'fw-rule-delete-1', 'fw-rule-select-1']) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
    expect(screen.getByTestId('fw-rule-switch-1').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('fw-rule-search')).toBeTruthy();
  });

  it('rules: a role with add and disable only gets exactly those', async () => {
    await openFirewall('rule_in', 'fw-rules-in-page', {
      role: 'technician',
      actions: [...readOnly, 'add', 'disable'],
      handlers: { 'GET /firewall/rules': ok({ total: 1, list: [ruleFixture(1)] }) },
    });
    await screen.findByTestId('fw-rule-row-1');
    expect(screen.getByTestId('fw-rule-add')).toBeTruthy();
    expect(screen.getByTestId('fw-rule-disable')).toBeTruthy();
    expect(screen.queryByTestId('fw-rule-enable')).toBeNull();
    expect(screen.queryByTestId('fw-rule-delete')).toBeNull();
    expect(screen.queryByTestId('fw-rule-edit-1')).toBeNull();
    expect(screen.getByTestId('fw-rule-switch-1').hasAttribute('disabled')).toBe(false);
  });

  it('lists: no add, import, export or delete without those actions', async () => {
    await openFirewall('black_white_list', 'fw-lists-page', {
      role: 'technician',
      actions: [...readOnly],
      handlers: { 'GET /firewall/lists': ok({ total: 1, list: [listEntry(1)] }) },
    });
    await screen.findByTestId('fw-list-row-1');
    for (const id of ['fw-list-add', 'fw-list-import', 'fw-list-export', 'fw-list-delete', 'fw-list-delete-all', 'fw-list-delete-1', 'fw-list-select-1']) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
  });

  it('lists: export alone shows only export', async () => {
    await openFirewall('black_white_list', 'fw-lists-page', { role: 'technician', actions: [...readOnly, 'export'] });
    expect(await screen.findByTestId('fw-list-export')).toBeTruthy();
    expect(screen.queryByTestId('fw-list-import')).toBeNull();
  });

  it('interception list: no manual block, unblock or export without those actions', async () => {
    await openFirewall('intercept_list', 'fw-intercept-page', {
      role: 'technician',
      actions: [...readOnly],
      handlers: { 'GET /firewall/intercept': ok({ total: 1, list: [interceptEntry(1)] }) },
    });
    await screen.findByTestId('fw-intercept-row-1');
    for (const id of ['fw-intercept-add', 'fw-intercept-unblock-selected', 'fw-intercept-unblock-all', 'fw-intercept-export', 'fw-intercept-unblock-1']) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
  });

  it('attack protection: without edit the settings are read-only and there is no save', async () => {
    await openFirewall('attack_protective', 'fw-attack-page', { role: 'technician', actions: [...readOnly] });
    await waitFor(() => expect((screen.getByTestId('fw-attack-port_scan-ports') as HTMLInputElement).disabled).toBe(true));
    expect(screen.queryByTestId('fw-attack-save')).toBeNull();
    expect(screen.queryByTestId('fw-attack-reset')).toBeNull();
    expect(screen.queryByTestId('fw-attack-access-add')).toBeNull();
  });
});
