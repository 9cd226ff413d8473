import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleKeys, roleCan, sections, tabPermission, type RoleId } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';

let h: Harness;
const tokens: Partial<Record<RoleId, string>> = {};
const accounts: Partial<Record<RoleId, { username: string; password: string }>> = {};

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  accounts.admin = admin;
  tokens.admin = await h.login(admin.username, admin.password);
  for (const role of ['technician', 'auditor'] as const) {
    const user = await h.addUser(role);
    accounts[role] = user;
    tokens[role] = user.token;
  }
});
afterAll(() => h.close());

const signedInRoles = ['admin', 'technician', 'auditor'] as const;

/** Routes whose handler would really restart or reboot; for those the walk checks access only. */
const sideEffectFree = (method: string, url: string) => !(method === 'POST' && url === '/magapi/restart');

describe('every guarded route, for every role, answers as its declared access says', () => {
  it('declares access on every route and covers the API the shell needs', () => {
    const urls = h.console.routes.map((r) => `${r.method} ${r.url}`);
    for (const needed of ['GET /magapi/info', 'POST /magapi/login', 'POST /magapi/register', 'GET /magapi/home/index', 'POST /magapi/module_switch', 'GET /ws']) {
      expect(urls).toContain(needed);
    }
  });

  it('walks the table', async () => {
    let checked = 0;
    for (const route of h.console.routes) {
      if (route.url === '/ws' || route.access.kind === 'permissions' || !sideEffectFree(route.method, route.url)) continue;
      // Without a token: public routes pass the guard, all others are 401.
      const anonymous = await h.app.inject({ method: route.method as 'GET', url: route.url });
      if (route.access.kind === 'public') expect(anonymous.statusCode, route.url).not.toBe(401);
      else expect(anonymous.statusCode, `${route.method} ${route.url}`).toBe(401);

      for (const role of signedInRoles) {
        const res = await h.app.inject({ method: route.method as 'GET', url: route.url, headers: auth(tokens[role]!) });
        // Trust-terminal routes take a terminal token only: a console session of any role is refused.
        if (route.access.kind === 'terminal') {
          expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(401);
          checked++;
          continue;
        }
        const allowed = route.access.kind !== 'permission' || roleCan(role, route.access.key, route.access.action);
        if (allowed) expect([401, 403], `${role} ${route.method} ${route.url} → ${res.statusCode}`).not.toContain(res.statusCode);
        else expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
        checked++;
        // Signing out through the walk would end the session the rest of it uses.
        if (route.url === '/magapi/logout') tokens[role] = await h.login(accounts[role]!.username, accounts[role]!.password);
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('lets a role switch exactly the modules its table grants', async () => {
    for (const role of signedInRoles) {
      for (const module of moduleKeys) {
        for (const status of [1, 0] as const) {
          const res = await h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload: { module, status }, headers: auth(tokens[role]!) });
          const allowed = roleCan(role, module, status === 1 ? 'enable' : 'disable');
          expect(res.statusCode, `${role} ${module} ${status}`).toBe(allowed ? 200 : 403);
        }
      }
    }
  });

  it('restart is refused to roles without home/edit, before anything runs', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/magapi/restart?t=1', headers: auth(tokens.auditor!) });
    expect(res.statusCode).toBe(403);
    expect(h.executed).toEqual([]);
  });

  it('hands each role the permissions the route table expects, so menu and server agree', async () => {
    for (const role of signedInRoles) {
      const info = (await h.app.inject({ url: '/magapi/info', headers: auth(tokens[role]!) })).json().data;
      expect(info.role.id).toBe(role);
      for (const section of sections) {
        for (const tab of section.tabs.length ? section.tabs : [{ key: '' }]) {
          const key = tab.key ? tabPermission(section, tab.key) : section.permission;
          const served = info.role.permissions.some((p: { perm_id: string; actions: string[] }) => p.perm_id === key && p.actions.includes('get'));
          expect(served, `${role} ${section.path}/${tab.key}`).toBe(roleCan(role, key, 'get'));
        }
      }
    }
  });
});
