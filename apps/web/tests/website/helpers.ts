import { screen } from '@testing-library/react';
import { defaultModuleFlags, defaultWebsiteSettings, permissionsOf, protectView, type Action, type ModuleFlags, type RoleId, type UserInfo } from '@rampart/contracts';
import { ok, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';

export { switchToChinese } from '../firewall/helpers.ts';

/** The console's answers for every website tab: the defaults, no sites, empty lists. */
export function websiteHandlers(): Record<string, Handler> {
  const s = defaultWebsiteSettings;
  return {
    'GET /website/server': ok({ list: [], is_any_open: false }),
    'GET /website/base': ok(s.base),
    'GET /website/request': ok(s.request),
    'GET /website/protect': ok(protectView(s.protect)),
    'GET /website/sql': ok(s.sql),
    'GET /website/attack': ok(s.attack),
    'GET /website/response': ok(s.response),
    'GET /website/lists': ok(s.lists),
    'GET /website/intercept_list': ok({ total: 0, list: [] }),
    'GET /website/author_list': ok({ total: 0, list: [] }),
    'GET /resource/area': ok({ list: [] }),
  };
}

/** Signs in, mocks the website answers and opens `/website/<tab>`; waits for the tab's page. */
export async function openWebsite(
  tab: string,
  options: { handlers?: Record<string, Handler>; role?: RoleId; websiteOn?: boolean; actions?: Action[]; info?: Partial<UserInfo> } = {},
) {
  const role = options.role ?? 'admin';
  const modules: ModuleFlags = { ...defaultModuleFlags(), website: options.websiteOn === false ? 0 : 1 };
  // With `actions`, the role holds only these website actions (the rest of its permissions as usual).
  const permissions = options.actions
    ? [...permissionsOf(role).filter((p) => p.perm_id !== 'website'), { perm_id: 'website' as const, actions: options.actions }]
    : undefined;
  const info = { module_list: modules, ...(permissions ? { role: { id: role, name: role, permissions } } : {}), ...options.info };
  const api = signedInAs(role, { info, handlers: { ...websiteHandlers(), ...options.handlers } });
  const view = renderApp(`/website/${tab}`);
  await screen.findByTestId(`web-${tab}-page`);
  return { api, view };
}
