import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirewallRuleInput } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * System settings, trust_terminal (super whitelist) and common areas tabs, against a real agent on
 * a real socket (desired state only; the kernel side is apps/agent/tests/firewall-common-areas.test.ts).
 */

let h: Harness;
let token: string;
let admin: { username: string; password: string };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
type Body = { code: number; msg: string; data?: Record<string, unknown> & { field?: string } };
async function post(url: string, payload: unknown, options: { lang?: Lang; ip?: string; as?: string } = {}) {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { ...auth(options.as ?? token), 'accept-language': options.lang ?? 'en-US' }, ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return { status: res.statusCode, body: res.json() as Body };
}
async function get(url: string, options: { lang?: Lang; ip?: string } = {}) {
  const res = await h.app.inject({ url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': options.lang ?? 'en-US' }, ...(options.ip ? { remoteAddress: options.ip } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
}
const day = 86_400_000;

describe('super whitelist (trust_terminal)', () => {
  it('adds IPv4 and IPv6 with a validity, lists them with who and when, searches, renews and deletes', async () => {
    const added = await post('/system/trust/ip', { ips: ['198.51.100.7', '2001:db8::7', '203.0.113.0/24'], days: 7, remark: 'office' });
    expect(added.body).toMatchObject({ code: 0, msg: 'Added 3 IP(s) (0 already listed)', data: { added: 3, skipped: 0 } });
    // The same address again is skipped, and said so.
    const again = await post('/system/trust/ip', { ips: ['198.51.100.7', '198.51.100.8'], days: 0 }, { lang: 'zh-CN' });
    expect(again.body).toMatchObject({ code: 0, msg: '已添加 1 个 IP（1 个已在名单中）' });
    const list = await get('/system/trust/ip', { ip: '192.0.2.44' });
    expect(list.body.data.total).toBe(4);
    expect(list.body.data.client_ip).toBe('192.0.2.44');
    const office = list.body.data.list.find((e: { address: string }) => e.address === '198.51.100.7');
    expect(office).toMatchObject({ added_by: admin.username, remark: 'office', source: 'manual', created_at: h.clock.now, expires_at: h.clock.now + 7 * day });
    expect(list.body.data.list.find((e: { address: string }) => e.address === '198.51.100.8').expires_at).toBeNull();
    expect((await get('/system/trust/ip?keyword=2001:db8')).body.data.total).toBe(1);
    expect((await get('/system/trust/ip?keyword=office&page=1&size=2')).body.data).toMatchObject({ total: 3 });

    // Renewal extends from the current end.
    const renewed = await post(`/system/trust/ip/renewal?id=${office.id}`, { days: 30 });
    expect(renewed.body).toMatchObject({ code: 0, msg: 'Renewed' });
    const after = (await get('/system/trust/ip?keyword=198.51.100.7')).body.data.list[0];
    expect(after.expires_at).toBe(h.clock.now + 37 * day);
    // Renewing to permanent.
    await post(`/system/trust/ip/renewal?id=${office.id}`, { days: 0 });
    expect((await get('/system/trust/ip?keyword=198.51.100.7')).body.data.list[0].expires_at).toBeNull();

    const ids = list.body.data.list.map((e: { id: number }) => e.id) as number[];
    const deleted = await post(`/system/trust/ip_delete?id=${ids.slice(0, 2).join(',')}`, undefined, { lang: 'zh-CN' });
    expect(deleted.body).toMatchObject({ code: 0, msg: '已删除 2 个 IP' });
    expect((await get('/system/trust/ip')).body.data.total).toBe(2);
    const gone = await post(`/system/trust/ip_delete?id=${ids[0]}`, undefined);
    expect(gone.body).toMatchObject({ code: 2, msg: 'This IP is not in the super whitelist: it may have expired or been deleted' });
    await post(`/system/trust/ip_delete?id=${ids.slice(2).join(',')}`, undefined);
  });

  it('refuses bad input on the field in both languages and saves nothing', async () => {
    const cases: Array<[unknown, string, Record<Lang, string>]> = [
      [{ ips: ['10.0.0.1'] }, 'days', { 'en-US': 'Choose the validity', 'zh-CN': '请选择有效期' }],
      [{ ips: ['10.0.0.1'], days: 4000 }, 'days', { 'en-US': 'The validity is 1 to 3650 days, or permanent', 'zh-CN': '有效期为 1 到 3650 天，或永久' }],
      [{ ips: ['10.0.0.1'], days: 1.5 }, 'days', { 'en-US': 'The validity is 1 to 3650 days, or permanent', 'zh-CN': '有效期为 1 到 3650 天，或永久' }],
      [{ ips: [], days: 1 }, 'ips', { 'en-US': 'Enter an IP', 'zh-CN': '请输入 IP' }],
      [{ ips: ['10.0.0.1', '10.0.0.300'], days: 1 }, 'ips.1', { 'en-US': 'Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *', 'zh-CN': 'IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *' }],
      [{ ips: ['*'], days: 1 }, 'ips.0', { 'en-US': 'The super whitelist cannot hold every address (* or /0)', 'zh-CN': '超级白名单不能包含所有地址（* 或 /0）' }],
      [{ ips: ['::/0'], days: 1 }, 'ips.0', { 'en-US': 'The super whitelist cannot hold every address (* or /0)', 'zh-CN': '超级白名单不能包含所有地址（* 或 /0）' }],
      [{ ips: ['10.0.0.1'], days: 1, remark: 'x'.repeat(201) }, 'remark', { 'en-US': 'The remark can be at most 200 characters', 'zh-CN': '备注不能超过 200 个字符' }],
    ];
    for (const [payload, field, messages] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/system/trust/ip', payload, { lang });
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.msg, JSON.stringify(payload)).toBe(messages[lang]);
        expect(res.body.data?.field).toBe(field);
      }
    }
    expect((await get('/system/trust/ip')).body.data.total).toBe(0);
    expect((await post('/system/trust/ip/renewal?id=1', { days: -1 })).status).toBe(400);
    expect((await post('/system/trust/ip/renewal?id=abc', { days: 1 })).status).toBe(400);
    expect((await post('/system/trust/ip_delete?id=0', undefined)).status).toBe(400);
    expect((await post('/system/trust/auto', { enabled: 'yes', days: 1 })).status).toBe(400);
    expect((await get('/system/trust/ip?size=1000')).status).toBe(400);
  });

  it('adds the address of a completed sign-in when the automatic add is on (not loopback, not twice)', async () => {
    expect((await get('/system/trust/auto')).body.data).toEqual({ enabled: false, days: 7 });
    await h.login(admin.username, admin.password, '198.51.100.20');
    expect((await get('/system/trust/ip')).body.data.total).toBe(0);

    expect((await post('/system/trust/auto', { enabled: true, days: 1 })).body).toMatchObject({ code: 0, msg: 'Saved' });
    await h.login(admin.username, admin.password, '198.51.100.20');
    await h.login(admin.username, admin.password, '198.51.100.20');
    await h.login(admin.username, admin.password, '127.0.0.1');
    await h.login(admin.username, admin.password, '::1');
    const list = (await get('/system/trust/ip')).body.data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ address: '198.51.100.20', added_by: admin.username, source: 'sign_in', expires_at: h.clock.now + day });
    // An address a network entry already covers is left alone.
    await post('/system/trust/ip', { ips: ['203.0.113.0/24'], days: 30 });
    await h.login(admin.username, admin.password, '203.0.113.9');
    expect((await get('/system/trust/ip')).body.data.total).toBe(2);
    // A failed sign-in adds nothing.
    await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: admin.username, password: 'wrong-Pass1' }, remoteAddress: '198.51.100.99' });
    expect((await get('/system/trust/ip?keyword=198.51.100.99')).body.data.total).toBe(0);
    await post('/system/trust/auto', { enabled: false, days: 1 });
    await post(`/system/trust/ip_delete?id=${(await get('/system/trust/ip')).body.data.list.map((e: { id: number }) => e.id).join(',')}`, undefined);
  });

  it('is the agent\'s list: trust.check tells engines whether an address is trusted', async () => {
    await post('/system/trust/ip', { ips: ['2001:db8:1::/48'], days: 1 });
    expect(await h.agentClient.call('trust.check', { ip: '2001:db8:1::5' })).toEqual({ trusted: true });
    expect(await h.agentClient.call('trust.check', { ip: '2001:db8:2::5' })).toEqual({ trusted: false });
    // Expired entries stop counting.
    h.clock.now += 2 * day;
    expect(await h.agentClient.call('trust.check', { ip: '2001:db8:1::5' })).toEqual({ trusted: false });
    h.clock.now -= 2 * day;
    await post(`/system/trust/ip_delete?id=${(await get('/system/trust/ip')).body.data.list.map((e: { id: number }) => e.id).join(',')}`, undefined);
  });
});

describe('common areas', () => {
  const rule: FirewallRuleInput = { direction: 'in', protocol: 'tcp', ports: '22', ips: [], areas: [], action: 'deny', priority: 10, enabled: true, remark: '' };

  it('adds, lists, searches, edits and deletes areas; rules use them as common:<id>', async () => {
    const saved = await post('/system/areas', { name: 'East Asia', members: ['JP', 'KR', 'CN-GD', 'JP'], remark: 'offices' });
    expect(saved.body).toMatchObject({ code: 0, msg: 'Saved' });
    const id = saved.body.data!['id'] as number;
    const list = await get('/system/areas');
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id, name: 'East Asia', members: ['JP', 'KR', 'CN-GD'], remark: 'offices', rules: 0 }] });
    expect((await get('/system/areas?keyword=east')).body.data.total).toBe(1);
    expect((await get('/system/areas?keyword=nothing')).body.data.total).toBe(0);

    // The picker finds it through /resource/area, by name, by id, or all at once.
    const search = await get('/resource/area?keywords=east');
    expect(search.body.data.list[0]).toMatchObject({ code: `common:${id}`, kind: 'common', name: 'East Asia' });
    expect((await get(`/resource/area?id=common:${id}`)).body.data.list).toHaveLength(1);
    expect((await get('/resource/area?kind=common')).body.data.list).toHaveLength(1);

    const added = await post('/firewall/rules/add', { ...rule, areas: [`common:${id}`, 'US'] });
    expect(added.body.code).toBe(0);
    expect((await get('/firewall/rules?direction=in')).body.data.list[0].areas).toEqual([`common:${id}`, 'US']);
    expect((await get('/system/areas')).body.data.list[0].rules).toBe(1);
    // What the kernel is built from: the reference expanded to the members (the kernel test sends real packets).
    expect(h.agent!.firewall.desired().rules.map((r) => r.areas)).toEqual([['JP', 'KR', 'CN-GD', 'US']]);
    // A rule cannot use an area that does not exist.
    const missing = await post('/firewall/rules/add', { ...rule, areas: ['common:99999'] }, { lang: 'zh-CN' });
    expect(missing.body).toMatchObject({ code: 2, msg: '规则引用的常用区域不存在，可能已被删除' });

    // Editing keeps the id; a deletion while rules use it is refused, naming how many.
    expect((await post('/system/areas', { id, name: 'East Asia 2', members: ['KR'] })).body.code).toBe(0);
    expect(h.agent!.firewall.desired().rules.map((r) => r.areas)).toEqual([['KR', 'US']]);
    const refused = await post(`/system/areas_delete?id=${id}`, undefined);
    expect(refused.body).toMatchObject({ code: 2, msg: 'This common area is used by 1 rule(s) (firewall or process protection): change or delete them first' });
    const refusedZh = await post(`/system/areas_delete?id=${id}`, undefined, { lang: 'zh-CN' });
    expect(refusedZh.body.msg).toBe('该常用区域正被 1 条规则（防火墙或进程防护）使用，请先修改或删除这些规则');
    expect((await get('/system/areas')).body.data.total).toBe(1);
    const ruleId = (await get('/firewall/rules?direction=in')).body.data.list[0].id as number;
    await post('/firewall/rules/delete', { ids: [ruleId] });
    expect((await post(`/system/areas_delete?id=${id}`, undefined)).body).toMatchObject({ code: 0, msg: 'Deleted 1 common area(s)' });
    expect((await get('/system/areas')).body.data.total).toBe(0);
    expect((await post(`/system/areas_delete?id=${id}`, undefined)).body).toMatchObject({ code: 2, msg: 'No such common area: it may have been deleted' });
  });

  it('refuses bad input on the field in both languages and saves nothing', async () => {
    await post('/system/areas', { name: 'Taken', members: ['US'] });
    const cases: Array<[unknown, string, Record<Lang, string>]> = [
      [{ members: ['US'] }, 'name', { 'en-US': 'Enter the area name', 'zh-CN': '请输入区域名称' }],
      [{ name: '   ', members: ['US'] }, 'name', { 'en-US': 'Enter the area name', 'zh-CN': '请输入区域名称' }],
      [{ name: 'x'.repeat(33), members: ['US'] }, 'name', { 'en-US': 'Area names are at most 32 characters', 'zh-CN': '区域名称不能超过 32 个字符' }],
      [{ name: 'a\u0007b', members: ['US'] }, 'name', { 'en-US': 'Area names cannot contain control characters', 'zh-CN': '区域名称不能含有控制字符' }],
      [{ name: 'Empty', members: [] }, 'members', { 'en-US': 'Choose at least one country or province', 'zh-CN': '请至少选择一个国家或省份' }],
      [{ name: 'Empty' }, 'members', { 'en-US': 'Choose at least one country or province', 'zh-CN': '请至少选择一个国家或省份' }],
      [{ name: 'Bad', members: ['US', 'XX'] }, 'members.1', { 'en-US': 'Choose a valid area', 'zh-CN': '请选择有效的地区' }],
      [{ name: 'Nested', members: ['common:1'] }, 'members.0', { 'en-US': 'Choose a valid area', 'zh-CN': '请选择有效的地区' }],
    ];
    for (const [payload, field, messages] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/system/areas', payload, { lang });
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.msg, JSON.stringify(payload)).toBe(messages[lang]);
        expect(res.body.data?.field).toBe(field);
      }
    }
    // Names are unique, whatever the case.
    expect((await post('/system/areas', { name: 'TAKEN', members: ['JP'] }, { lang: 'zh-CN' })).body).toMatchObject({ code: 2, msg: '已有同名的常用区域' });
    expect((await post('/system/areas', { id: 99999, name: 'Other', members: ['JP'] })).body).toMatchObject({ code: 2, msg: 'No such common area: it may have been deleted' });
    expect((await post('/system/areas_delete?id=x', undefined)).status).toBe(400);
    expect((await post('/firewall/rules/add', { ...rule, areas: ['common:abc'] })).status).toBe(400);
    const list = (await get('/system/areas')).body.data;
    expect(list.total).toBe(1);
    await post(`/system/areas_delete?id=${list.list[0].id}`, undefined);
  });

  it('needs the system permission; the picker look-up only a session', async () => {
    const tech = await h.addUser('technician', 'tech1');
    const denied = await h.app.inject({ url: '/magapi/system/areas', headers: auth(tech.token) });
    expect(denied.statusCode).toBe(403);
    expect((await post('/system/trust/ip', { ips: ['10.9.9.9'], days: 1 }, { as: tech.token })).status).toBe(403);
    const picker = await h.app.inject({ url: '/magapi/resource/area?kind=common', headers: auth(tech.token) });
    expect(picker.json()).toMatchObject({ code: 0 });
  });
});
