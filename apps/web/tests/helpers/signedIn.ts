import type { RoleId, UserInfo } from '@rampart/contracts';
import { setToken } from '../../src/storage/token.ts';
import { installFakeWebSocket } from './fakeWebSocket.ts';
import { homeIndexFixture, userInfoFor } from './fixtures.ts';
import { mockApi, ok, type Handler } from './mockApi.ts';

/** A signed-in browser for `role`: token stored, the console's answers mocked, a fake websocket. */
export function signedInAs(role: RoleId, extra: { info?: Partial<UserInfo>; handlers?: Record<string, Handler> } = {}) {
  setToken('test-token', true);
  installFakeWebSocket();
  return mockApi({
    'GET /info': ok(userInfoFor(role, extra.info)),
    'GET /global': ok({ modules: userInfoFor(role).module_list, oem: { oem_help: 'https://help.example/rampart' }, registered: true }),
    'GET /log/notice/unread': ok({ unread: 3 }),
    'GET /home/index': ok(homeIndexFixture()),
    'GET /home/performance': ok({ rx: 0, tx: 0, at: 0 }),
    'POST /logout': ok(null),
    ...extra.handlers,
  });
}
