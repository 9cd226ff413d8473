import { defaultAttackSettings, defaultLogSettings, defaultNtpSettings, type RoleId, type UserInfo } from '@rampart/contracts';
import { setToken } from '../../src/storage/token.ts';
import { installFakeWebSocket } from './fakeWebSocket.ts';
import { homeIndexFixture, logBaseFixture, userInfoFor } from './fixtures.ts';
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
    // The pages of the log section and the system settings this build has: empty, unless a test says otherwise.
    'GET /log/system': ok({ list: [], more: false }),
    'GET /log/system/base': ok(logBaseFixture()),
    'GET /log/notice': ok({ count: 0, list: null }),
    'GET /log/photo': ok({ list: [], more: false }),
    'GET /log/photo/base': ok({ count: 0, keep_days: 30 }),
    'GET /system/log': ok(defaultLogSettings),
    'GET /system/log_backup': ok({ rules: [] }),
    'GET /system/basic': ok({ server_alias: '', temp_minutes: 720, protection: { mode: 'on', until: null, minutes_left: null, since: null, account: '' } }),
    'GET /system/basic/ntp': ok({ settings: defaultNtpSettings, status: { state: 'idle', at: null, server: '', time: null, offset_ms: null, delay_ms: null, clock_set: false, error: '' } }),
    'GET /firewall/status': ok({ kernel: 'ok', message: '', applied_at: null, restored: 0, counts: { rules_in: 0, rules_out: 0, white: 0, black: 0, intercept: 0 }, probation: null }),
    'GET /firewall/rules': ok({ total: 0, list: [] }),
    'GET /firewall/lists': ok({ total: 0, list: [] }),
    'GET /firewall/intercept': ok({ total: 0, list: [] }),
    'GET /firewall/attack': ok(defaultAttackSettings),
    ...extra.handlers,
  });
}
