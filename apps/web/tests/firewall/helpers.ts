import { act, screen } from '@testing-library/react';
import {
  defaultAttackSettings, permissionsOf,
  type Action, type FirewallChange, type FirewallRule, type FirewallStatus, type InterceptEntry, type ListEntry, type RoleId,
} from '@rampart/contracts';
import { i18next } from '../../src/i18n/index.ts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';

export const at = (day: number, hour = 10) => new Date(2025, 4, day, hour, 0, 0).getTime();

export function statusFixture(extra: Partial<FirewallStatus> = {}): FirewallStatus {
  return {
    kernel: 'ok',
    message: '',
    applied_at: at(6),
    restored: 0,
    counts: { rules_in: 2, rules_out: 0, white: 1, black: 1, intercept: 1 },
    probation: null,
    ...extra,
  };
}

export function ruleFixture(id: number, extra: Partial<FirewallRule> = {}): FirewallRule {
  return {
    id,
    direction: 'in',
    protocol: 'tcp',
    ports: '22',
    ips: ['203.0.113.0/24'],
    areas: [],
    action: 'allow',
    priority: 10,
    enabled: true,
    remark: `rule ${id}`,
    created_at: at(5),
    updated_at: at(6),
    ...extra,
  };
}

export function listEntry(id: number, extra: Partial<ListEntry> = {}): ListEntry {
  return { id, address: `198.51.100.${id}`, remark: `entry ${id}`, created_at: at(5), expires_at: null, ...extra };
}

export function interceptEntry(id: number, extra: Partial<InterceptEntry> = {}): InterceptEntry {
  return { id, ip: `203.0.113.${id}`, reason: 'port_scan', detail: '12 ports in 10 s', blocked_at: Date.now() - 60_000, expires_at: Date.now() + 90 * 60_000 - 30_000, ...extra };
}

export const done = (extra: Partial<FirewallChange> = {}): FirewallChange => ({ refused: null, probation: null, warnings: [], changed: 1, ...extra });

/** The console answers every firewall tab needs, empty unless a test says otherwise. */
export function firewallHandlers(): Record<string, Handler> {
  return {
    'GET /firewall/status': ok(statusFixture()),
    'GET /firewall/rules': ok({ total: 0, list: [] }),
    'GET /firewall/attack': ok(defaultAttackSettings),
    'GET /firewall/lists': ok({ total: 0, list: [] }),
    'GET /firewall/intercept': ok({ total: 0, list: [] }),
  };
}

/** A role holding only these firewall actions (the rest of its permissions as usual). */
export function firewallOnly(role: RoleId, actions: Action[]) {
  return {
    id: role,
    name: role,
    permissions: [...permissionsOf(role).filter((p) => p.perm_id !== 'firewall'), { perm_id: 'firewall' as const, actions }],
  };
}

/** Signs in, mocks the firewall answers and opens `/firewall/<tab>`; waits for the tab's page. */
export async function openFirewall(tab: string, pageTestId: string, options: { handlers?: Record<string, Handler>; role?: RoleId; actions?: Action[] } = {}) {
  const role = options.role ?? 'admin';
  const api = signedInAs(role, {
    info: options.actions ? { role: firewallOnly(role, options.actions) } : {},
    handlers: { ...firewallHandlers(), ...options.handlers },
  });
  const view = renderApp(`/firewall/${tab}`);
  await screen.findByTestId(pageTestId);
  return { api, view };
}

export async function switchToChinese() {
  localStorage.setItem('rampart.lang', 'zh-CN');
  await act(() => i18next.changeLanguage('zh-CN'));
}
