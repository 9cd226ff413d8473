import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAttackSettings, type FirewallRuleInput } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * The firewall's console calls against a real agent. The agent keeps the desired state only
 * (no nft here); the kernel side is tested on real packets in apps/agent/tests/firewall-kernel.test.ts.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
async function post(url: string, payload: unknown, options: { lang?: Lang; ip?: string } = {}) {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, payload: payload as object,
    headers: { ...auth(token), 'accept-language': options.lang ?? 'en-US' }, ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data?: Record<string, unknown> & { field?: string } } };
}
async function get(url: string, lang: Lang = 'en-US') {
  const res = await h.app.inject({ url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang } });
  const isJson = String(res.headers['content-type'] ?? '').includes('json');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
  return { status: res.statusCode, body: (isJson ? res.json() : {}) as { code: number; msg: string; data: any }, text: res.body, headers: res.headers };
}

const rule: FirewallRuleInput = { direction: 'in', protocol: 'tcp', ports: '80,443,5500-5600', ips: ['10.0.0.0/8', '2001:db8::1'], areas: ['JP'], action: 'deny', priority: 10, enabled: true, remark: 'web' };

describe('firewall rules', () => {
  it('adds, lists, searches, edits, disables and deletes rules', async () => {
    const added = await post('/firewall/rules/add', rule);
    expect(added.body).toMatchObject({ code: 0, msg: 'Saved' });
    await post('/firewall/rules/add', { ...rule, direction: 'out', ports: '25', remark: 'mail' });
    const list = await get('/firewall/rules?direction=in');
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({ ports: '80,443,5500-5600', ips: ['10.0.0.0/8', '2001:db8::1'], areas: ['JP'], enabled: true });
    expect((await get('/firewall/rules?direction=in&keyword=5500')).body.data.total).toBe(1);
    expect((await get('/firewall/rules?direction=in&keyword=nothing-like-it')).body.data.total).toBe(0);
    const id = list.body.data.list[0].id as number;
    expect((await post('/firewall/rules/edit', { ...rule, id, priority: 3 })).body.code).toBe(0);
    expect((await get('/firewall/rules?direction=in')).body.data.list[0].priority).toBe(3);
    expect((await post('/firewall/rules/disable', { ids: [id] })).body.code).toBe(0);
    expect((await get('/firewall/rules?direction=in')).body.data.list[0].enabled).toBe(false);
    expect((await post('/firewall/rules/delete', { ids: [id] })).body.code).toBe(0);
    expect((await get('/firewall/rules?direction=in')).body.data.total).toBe(0);
    expect((await get('/firewall/rules?direction=out')).body.data.total).toBe(1);
  });

  it('refuses bad rules on the field, in both languages, and saves nothing', async () => {
    const before = (await get('/firewall/rules?direction=in')).body.data.total;
    const cases: Array<[Partial<FirewallRuleInput>, string, Record<Lang, string>]> = [
      [{ ports: '' }, 'ports', { 'en-US': 'Enter ports', 'zh-CN': '请输入端口' }],
      [{ ports: '80,70000' }, 'ports', { 'en-US': 'Ports look like 80,443,5500-5600; * means every port', 'zh-CN': '端口格式有误，例如 80,443,5500-5600，* 表示全部端口' }],
      [{ ports: '90-80' }, 'ports', { 'en-US': 'Ports look like 80,443,5500-5600; * means every port', 'zh-CN': '端口格式有误，例如 80,443,5500-5600，* 表示全部端口' }],
      [{ priority: 0 }, 'priority', { 'en-US': 'Priority is a whole number from 1 to 99; 1 is the highest', 'zh-CN': '优先级须为 1-99 的整数，1 最高' }],
      [{ priority: 100 }, 'priority', { 'en-US': 'Priority is a whole number from 1 to 99; 1 is the highest', 'zh-CN': '优先级须为 1-99 的整数，1 最高' }],
      [{ ips: [], areas: [] }, 'ips', { 'en-US': 'Enter the access source (IPs or areas)', 'zh-CN': '请输入访问来源（IP 或地区）' }],
      [{ ips: ['10.0.0.1', '10.0.0.1/8'] }, 'ips.1', { 'en-US': 'Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *', 'zh-CN': 'IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *' }],
      [{ ips: ['10.0.0.9-10.0.0.1'] }, 'ips.0', { 'en-US': 'Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *', 'zh-CN': 'IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *' }],
      [{ areas: ['XX'] }, 'areas.0', { 'en-US': 'Choose a valid area', 'zh-CN': '请选择有效的地区' }],
      [{ protocol: 'sctp' as 'tcp' }, 'protocol', { 'en-US': 'Choose a protocol', 'zh-CN': '请选择协议' }],
    ];
    for (const [change, field, messages] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/firewall/rules/add', { ...rule, ...change }, { lang });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.msg, JSON.stringify(change)).toBe(messages[lang]);
        expect(res.body.data?.field).toBe(field);
      }
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    const many = await post('/firewall/rules/add', { ...rule, ips: tooMany }, { lang: 'zh-CN' });
    expect(many.body).toMatchObject({ msg: '一次最多输入 1000 个 IP', data: { field: 'ips' } });
        const missingPriority: Record<string, unknown> = { ...rule };
    delete missingPriority['priority'];
    expect((await post('/firewall/rules/add', missingPriority)).body.msg).toBe('Enter priority');
    expect((await get('/firewall/rules?direction=in')).body.data.total).toBe(before);
    const edit = await post('/firewall/rules/edit', { ...rule, id: 999_999 });
    expect(edit.body).toMatchObject({ code: 2, msg: 'The rule does not exist' });
  });
});

describe('attack protection settings', () => {
  it('reads the defaults, saves a change, and refuses bad values on the field', async () => {
    expect((await get('/firewall/attack')).body.data).toEqual(defaultAttackSettings);
    const next = { ...defaultAttackSettings, port_scan: { ...defaultAttackSettings.port_scan, ports: 20, seconds: 30 }, cc: { ...defaultAttackSettings.cc, enabled: false } };
    expect((await post('/firewall/attack', next)).body.code).toBe(0);
    expect((await get('/firewall/attack')).body.data).toEqual(next);
    const bad = await post('/firewall/attack', { ...next, port_scan: { ...next.port_scan, ports: 0 } }, { lang: 'zh-CN' });
    expect(bad.status).toBe(400);
    expect(bad.body.data?.field).toBe('port_scan.ports');
    const noDeny = await post('/firewall/attack', { ...next, cc: { enabled: true, per_minute: 10 } });
    expect(noDeny.body).toMatchObject({ msg: 'Enter the deny time', data: { field: 'cc.block_minutes' } });
    const relative = await post('/firewall/attack', { ...next, access_logs: [{ path: 'var/log/x.log', format: 'nginx' }] });
    expect(relative.body.data?.field).toBe('access_logs.0.path');
    expect((await get('/firewall/attack')).body.data).toEqual(next);
  });
});

describe('black and white lists', () => {
  it('adds entries once each, searches, deletes by id and deletes all', async () => {
    const res = await post('/firewall/lists/add', { list: 'black', addresses: ['198.51.100.7', '198.51.100.0/24', '2001:DB8:0::5', '2001:db8::5'], remark: 'bad' });
    expect(res.body.code).toBe(0);
    expect(res.body.data?.changed).toBe(3);
    const page = (await get('/firewall/lists?list=black')).body.data;
    expect(page.total).toBe(3);
    expect(page.list.map((e: { address: string }) => e.address).sort()).toEqual(['198.51.100.0/24', '198.51.100.7', '2001:db8::5']);
    expect((await get('/firewall/lists?list=black&keyword=2001')).body.data.total).toBe(1);
    expect((await get('/firewall/lists?list=white')).body.data.total).toBe(0);
    expect((await post('/firewall/lists/delete', { list: 'black', ids: [page.list[0].id] })).body.data?.changed).toBe(1);
    expect((await post('/firewall/lists/delete', { list: 'black', ids: 'all' })).body.data?.changed).toBe(2);
    expect((await get('/firewall/lists?list=black')).body.data.total).toBe(0);
  });

  it('refuses a bad address with its line, and an end time in the past', async () => {
    const bad = await post('/firewall/lists/add', { list: 'white', addresses: ['192.0.2.1', 'not-an-ip'] }, { lang: 'zh-CN' });
    expect(bad.status).toBe(400);
    expect(bad.body.data?.field).toBe('addresses.1');
    const tooMany = Array.from({ length: 50_001 }, (_, i) => `10.${Math.floor(i / 65_000)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`);
    const many = await post('/firewall/lists/add', { list: 'white', addresses: tooMany });
    expect(many.body).toMatchObject({ msg: 'At most 50000 IPs at a time', data: { field: 'addresses' } });
    const past = await post('/firewall/lists/add', { list: 'white', addresses: ['192.0.2.1'], expires_at: h.clock.now - 1000 });
    expect(past.body).toMatchObject({ code: 2, msg: 'The validity must end after now' });
    expect((await get('/firewall/lists?list=white')).body.data.total).toBe(0);
  });

  it('imports a file (comments and blank lines skipped), refuses a bad line by number, and exports', async () => {
    const content = '\uFEFF# my list\n192.0.2.10\n\n192.0.2.11 # office\n192.0.2.0/28\n192.0.2.10\n';
    const imported = await post('/firewall/lists/import', { list: 'white', content, remark: 'import' });
    expect(imported.body).toMatchObject({ code: 0, msg: 'Imported: 3 added, 1 already listed' });
    const bad = await post('/firewall/lists/import', { list: 'white', content: '192.0.2.20\n192.0.2.300\n' }, { lang: 'zh-CN' });
    expect(bad.body).toMatchObject({ code: 2, msg: '第 2 行格式有误：192.0.2.300' });
    expect((await get('/firewall/lists?list=white')).body.data.total).toBe(3);
    const empty = await post('/firewall/lists/import', { list: 'white', content: '# nothing\n\n' });
    expect(empty.body.msg).toBe('The file holds no valid IP');
    const exported = await get('/firewall/export?list=white');
    expect(exported.headers['content-disposition']).toContain('rampart-white-list.txt');
    const lines = exported.text.trim().split('\n');
    expect(lines[0]).toMatch(/^# Rampart white list/);
    expect(lines.slice(1).map((l) => l.split(' ')[0]).sort()).toEqual(['192.0.2.0/28', '192.0.2.10', '192.0.2.11']);
    // What was exported imports again as "already listed".
    const again = await post('/firewall/lists/import', { list: 'white', content: exported.text });
    expect(again.body.msg).toBe('Imported: 0 added, 3 already listed');
    await post('/firewall/lists/delete', { list: 'white', ids: 'all' });
  });
});

describe('interception list', () => {
  it('blocks by hand, lists with reason and end time, and unblocks', async () => {
    const res = await post('/firewall/intercept/add', { ips: ['203.0.113.50', '2001:db8::50'], minutes: 30, remark: 'manual test' });
    expect(res.body.code).toBe(0);
    const page = (await get('/firewall/intercept')).body.data;
    expect(page.total).toBe(2);
    expect(page.list[0]).toMatchObject({ reason: 'manual', detail: 'manual test' });
    expect(page.list[0].expires_at - page.list[0].blocked_at).toBe(30 * 60_000);
    const cidr = await post('/firewall/intercept/add', { ips: ['203.0.113.0/24'], minutes: 30 });
    expect(cidr.body.data?.field).toBe('ips.0');
    const noMinutes = await post('/firewall/intercept/add', { ips: ['203.0.113.51'] }, { lang: 'zh-CN' });
    expect(noMinutes.body.msg).toBe('请输入禁止时间');
    const unblock = await post('/firewall/intercept/delete', { ids: [page.list[0].id] });
    expect(unblock.body).toMatchObject({ code: 0, msg: 'Unblocked' });
    expect((await get('/firewall/intercept')).body.data.total).toBe(1);
    await post('/firewall/intercept/delete', { ids: 'all' });
    expect((await get('/firewall/intercept')).body.data.total).toBe(0);
  });
});

describe('keeping the administrator reachable', () => {
  it('puts a blacklisting of the administrator\'s own address on probation; confirm keeps it', async () => {
    const change = await post('/firewall/lists/add', { list: 'black', addresses: ['203.0.113.0/24'] }, { ip: '203.0.113.9', lang: 'en-US' });
    expect(change.body.code).toBe(1);
    expect(change.body.msg).toBe('This change blocks your own IP (203.0.113.9). It is applied for now: confirm within 60 s or it is rolled back');
    const probation = change.body.data?.probation as { token: string; expires_at: number };
    expect(probation.token).toMatch(/^[0-9a-f]{32}$/);
    expect((await get('/firewall/probation')).body.data.token).toBe(probation.token);
    expect((await get('/firewall/status')).body.data.probation.token).toBe(probation.token);
    const wrong = await post('/firewall/confirm', { token: 'f'.repeat(32) });
    expect(wrong.body).toMatchObject({ code: 2, msg: 'The change awaiting confirmation is gone (it may have been rolled back)' });
    expect((await post('/firewall/confirm', { token: probation.token })).body).toMatchObject({ code: 0, msg: 'Confirmed; the change stays' });
    expect((await get('/firewall/probation')).body.data).toBeNull();
    expect((await get('/firewall/lists?list=black')).body.data.total).toBe(1);
    await post('/firewall/lists/delete', { list: 'black', ids: 'all' });
  });

  it('warns when a rule closes the panel port for everyone', async () => {
    const res = await post('/firewall/rules/add', { ...rule, ports: '1-65535', ips: ['*'], areas: [], priority: 1 }, { lang: 'zh-CN' });
    expect(res.body.code).toBe(1);
    expect(res.body.msg).toBe('警告：面板端口 6688 未在防火墙中放行');
    const rules = (await get('/firewall/rules?direction=in')).body.data.list.map((r: { id: number }) => r.id);
    await post('/firewall/rules/delete', { ids: rules });
  });
});

describe('status', () => {
  it('says when the firewall cannot reach the kernel', async () => {
    const status = (await get('/firewall/status')).body.data;
    expect(status.kernel).toBe('unavailable');
    expect(status.counts).toEqual({ rules_in: 0, rules_out: 1, white: 0, black: 0, intercept: 0 });
  });
});

describe('area look-up', () => {
  it('finds areas by name in the caller\'s language and one by code', async () => {
    const zh = (await get(`/resource/area?keywords=${encodeURIComponent('广东')}`, 'zh-CN')).body.data.list;
    expect(zh[0]).toMatchObject({ code: 'CN-GD', kind: 'province', name: '广东省' });
    const en = (await get('/resource/area?keywords=japan')).body.data.list;
    expect(en[0]).toMatchObject({ code: 'JP', kind: 'country', name: 'Japan' });
    expect((await get('/resource/area?id=jp', 'zh-CN')).body.data.list).toEqual([{ code: 'JP', kind: 'country', name: '日本' }]);
    expect((await get('/resource/area?id=ZZ')).body.data.list).toEqual([]);
    const long = await get(`/resource/area?keywords=${'x'.repeat(51)}`);
    expect(long.status).toBe(400);
  });
});
