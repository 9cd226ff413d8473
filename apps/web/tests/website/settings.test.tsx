import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultWebsiteSettings as defaults, protectView, type WebsiteProtectInput } from '@rampart/contracts';
import { choose, type } from '../helpers/antd.ts';
import { ok, refused, type ApiCall } from '../helpers/mockApi.ts';
import { openWebsite, switchToChinese } from './helpers.ts';

/** The console stores the body and answers it back. */
const echo = (call: ApiCall) => ok(call.body, 'Saved');
const posted = (api: { callsTo(k: string): { body: unknown }[] }, tab: string) => api.callsTo(`POST /website/${tab}`).map((c) => c.body);
const fieldError = (tab: string, path: string) => screen.queryByTestId(`web-${tab}-error-${path}`)?.textContent;
const save = (tab: string) => fireEvent.click(screen.getByTestId(`web-${tab}-save`));

async function open(tab: string, handlers = {}, options: Parameters<typeof openWebsite>[1] = {}) {
  const opened = await openWebsite(tab, { ...options, handlers: { [`POST /website/${tab}`]: echo, ...handlers } });
  await screen.findByTestId(`web-${tab}-save`);
  return opened;
}

/** Each settings tab: a group title in English and in Chinese. */
const titles: Record<string, [string, string]> = {
  base: ['Attack snapshots', '攻击快照'],
  request: ['Request methods denied', '禁止的请求方法'],
  protect: ['CC protection', 'CC 防护'],
  sql: ['Block library', '拦截库'],
  attack: ['Attack detection', '攻击检测'],
  response: ['Interception response', '拦截响应'],
  lists: ['Spider whitelist', '蜘蛛白名单'],
};

describe('website settings tabs render in both languages', () => {
  for (const [tab, [en, zh]] of Object.entries(titles)) {
    it(`${tab} in English`, async () => {
      await open(tab);
      expect(screen.getByText(en)).toBeTruthy();
    });
    it(`${tab} in Chinese`, async () => {
      await switchToChinese();
      await open(tab);
      expect(screen.getByText(zh)).toBeTruthy();
    });
  }
});

describe('protect: CC and 404 scan say where they apply, beside the firewall ones', () => {
  it('in English', async () => {
    await open('protect');
    expect(screen.getByText(/to this site is verified \(loose\) or blocked \(strict\), in the gateway\. The firewall's CC protection is another/)).toBeTruthy();
    expect(screen.getByText(/The firewall's 404 scan protection is another/)).toBeTruthy();
  });
  it('in Chinese', async () => {
    await switchToChinese();
    await open('protect');
    expect(screen.getByText(/防火墙的 CC 防护是另一项/)).toBeTruthy();
    expect(screen.getByText(/防火墙的 404 扫描防护是另一项/)).toBeTruthy();
  });
});

describe('base', () => {
  it('saves the edited groups as one body', async () => {
    const { api } = await open('base');
    type('web-base-snapshot.retention_days', '90');
    fireEvent.click(screen.getByTestId('web-base-cookie.http_only'));
    await choose('web-base-frame_options.mode', 'web-base-frame_options.mode-allow_from');
    type('web-base-frame_options.domains', 'partner.example.com\n\n*.Example.org');
    fireEvent.click(screen.getByTestId('web-base-alert-method-email'));
    save('base');
    await waitFor(() => expect(posted(api, 'base')).toHaveLength(1));
    expect(posted(api, 'base')[0]).toEqual({
      ...defaults.base,
      snapshot: { enabled: true, retention_days: 90 },
      alert: { enabled: false, area: 'all', methods: ['email'] },
      cookie: { http_only: true, same_site: 'off' },
      frame_options: { mode: 'allow_from', domains: ['partner.example.com', '*.example.org'] },
    });
  });

  it('refuses a bad value before sending, on its field', async () => {
    const { api } = await open('base');
    type('web-base-snapshot.retention_days', '');
    await choose('web-base-frame_options.mode', 'web-base-frame_options.mode-allow_from');
    save('base');
    await waitFor(() => expect(fieldError('base', 'snapshot.retention_days')).toBeTruthy());
    expect(fieldError('base', 'frame_options.domains')).toBeTruthy();
    expect(posted(api, 'base')).toHaveLength(0);
  });

  it("shows the server's field error on its field", async () => {
    await open('base', { 'POST /website/base': refused('Retention is out of range', 'snapshot.retention_days') });
    save('base');
    await waitFor(() => expect(fieldError('base', 'snapshot.retention_days')).toBe('Retention is out of range'));
  });
});

describe('request', () => {
  it('saves methods, limits, header rules and file types', async () => {
    const { api } = await open('request');
    type('web-request-denied_methods', 'trace, track\nput');
    type('web-request-limits.post_bytes', '1048576');
    fireEvent.click(screen.getByTestId('web-request-header-rule-add'));
    type('web-request-header-rule-0-header', 'User-Agent');
    type('web-request-header-rule-0-max', '512');
    fireEvent.click(screen.getByTestId('web-request-upload.enabled'));
    type('web-request-upload.types', 'jpg,png,');
    // The web-shell scan of uploads is on by default; switched off here.
    expect(screen.getByTestId('web-request-group-upload_scan').textContent).toContain('Web shell scan of uploads');
    fireEvent.click(screen.getByTestId('web-request-upload_scan.enabled'));
    save('request');
    await waitFor(() => expect(posted(api, 'request')).toHaveLength(1));
    expect(posted(api, 'request')[0]).toEqual({
      ...defaults.request,
      denied_methods: ['TRACE', 'TRACK', 'PUT'],
      limits: { ...defaults.request.limits, post_bytes: 1_048_576 },
      header_rules: [{ id: 1, enabled: true, header: 'user-agent', max_bytes: 512 }],
      upload: { enabled: true, types: 'jpg,png,' },
      upload_scan: { enabled: false },
    });
  });

  it('names the wrong entry of a list by its number', async () => {
    const { api } = await open('request');
    type('web-request-denied_methods', 'GET, BAD!');
    save('request');
    await waitFor(() => expect(fieldError('request', 'denied_methods')).toMatch(/^Entry 2: /));
    expect(posted(api, 'request')).toHaveLength(0);
  });

  it("shows the server's field error on its field", async () => {
    await open('request', { 'POST /website/request': refused('Size is not valid', 'limits.url_bytes') });
    save('request');
    await waitFor(() => expect(fieldError('request', 'limits.url_bytes')).toBe('Size is not valid'));
  });
});

describe('protect', () => {
  it('posts a new password once, never the hash; blank keeps it', async () => {
    const stored = protectView({ ...defaults.protect, authorization: { enabled: true, validity_minutes: 60, password_hash: 'scrypt$x' } });
    const { api } = await open('protect', { 'GET /website/protect': ok(stored), 'POST /website/protect': ok(null, 'Saved') });
    type('web-protect-cc.per_minute', '120');
    await choose('web-protect-cc.mode', 'web-protect-cc.mode-strict');
    fireEvent.click(screen.getByTestId('web-protect-time-add'));
    type('web-protect-time-0-url', '/admin');
    type('web-protect-time-0-windows', '08:00-12:00, 14:00 - 18:00');
    save('protect');
    await waitFor(() => expect(posted(api, 'protect')).toHaveLength(1));
    const body = posted(api, 'protect')[0] as WebsiteProtectInput;
    expect(body.cc).toEqual({ ...defaults.protect.cc, mode: 'strict', per_minute: 120 });
    expect(body.time_limits).toEqual([{ id: 1, enabled: true, url: '/admin', windows: [{ start: '08:00', end: '12:00' }, { start: '14:00', end: '18:00' }] }]);
    expect(body.authorization).toEqual({ enabled: true, validity_minutes: 60, password: null });

    type('web-protect-authorization.password', 'n3w-Secret');
    save('protect');
    await waitFor(() => expect(posted(api, 'protect')).toHaveLength(2));
    expect((posted(api, 'protect')[1] as WebsiteProtectInput).authorization.password).toBe('n3w-Secret');
  });

  it('refuses a window that ends before it starts and a weak password', async () => {
    const { api } = await open('protect');
    fireEvent.click(screen.getByTestId('web-protect-time-add'));
    type('web-protect-time-0-url', '/admin');
    type('web-protect-time-0-windows', '18:00-08:00');
    type('web-protect-authorization.password', '12345678');
    save('protect');
    await waitFor(() => expect(fieldError('protect', 'time_limits.0.windows')).toBeTruthy());
    expect(fieldError('protect', 'authorization.password')).toBeTruthy();
    expect(posted(api, 'protect')).toHaveLength(0);
  });

  it("shows the server's field error on its field", async () => {
    await open('protect', { 'POST /website/protect': refused('Frequency out of range', 'scan_404.per_minute') });
    save('protect');
    await waitFor(() => expect(fieldError('protect', 'scan_404.per_minute')).toBe('Frequency out of range'));
  });
});

describe('sql', () => {
  it('explains ++, -- and == and saves the libraries line by line', async () => {
    const { api } = await open('sql');
    const help = screen.getByTestId('web-sql-keywords-help').textContent ?? '';
    expect(help).toContain('a++b');
    expect(help).toContain('a--b');
    expect(help).toContain('x==y');
    fireEvent.click(screen.getByTestId('web-sql-keywords.block.enabled'));
    type('web-sql-keywords.block.rules', 'casino--casino royale review\n\nunion++select');
    type('web-sql-keywords.filter.rules', 'darn==d*rn');
    save('sql');
    await waitFor(() => expect(posted(api, 'sql')).toHaveLength(1));
    expect(posted(api, 'sql')[0]).toEqual({
      sqli: true,
      keywords: {
        block: { enabled: true, rules: ['casino--casino royale review', 'union++select'] },
        filter: { enabled: false, rules: ['darn==d*rn'] },
        record: { enabled: false, rules: [] },
      },
    });
  });

  it('names a malformed rule by its line', async () => {
    const { api } = await open('sql');
    type('web-sql-keywords.block.rules', 'fine\na++');
    save('sql');
    await waitFor(() => expect(fieldError('sql', 'keywords.block.rules')).toMatch(/^Entry 2: /));
    expect(posted(api, 'sql')).toHaveLength(0);
  });

  it("shows the server's field error on its field", async () => {
    await open('sql', { 'POST /website/sql': refused('Too many rules', 'keywords.record.rules') });
    save('sql');
    await waitFor(() => expect(fieldError('sql', 'keywords.record.rules')).toBe('Too many rules'));
  });
});

describe('attack', () => {
  it('saves the kinds, file inclusion and headers', async () => {
    const { api } = await open('attack');
    fireEvent.click(screen.getByTestId('web-attack-kinds.xss'));
    fireEvent.click(screen.getByTestId('web-attack-file_inclusion.remote'));
    type('web-attack-headers', 'User-Agent\nX-Api-Key');
    save('attack');
    await waitFor(() => expect(posted(api, 'attack')).toHaveLength(1));
    expect(posted(api, 'attack')[0]).toEqual({
      kinds: { ...defaults.attack.kinds, xss: false },
      file_inclusion: { local: true, remote: false },
      headers: ['user-agent', 'x-api-key'],
    });
  });

  it("shows the server's field error on its field", async () => {
    await open('attack', { 'POST /website/attack': refused('Header name is not valid', 'headers.1') });
    save('attack');
    await waitFor(() => expect(fieldError('attack', 'headers')).toBe('Entry 2: Header name is not valid'));
  });
});

describe('response', () => {
  it('saves a redirect', async () => {
    const { api } = await open('response');
    await choose('web-response-type', 'web-response-type-redirect');
    type('web-response-redirect_url', 'https://www.example.com/blocked.html');
    save('response');
    await waitFor(() => expect(posted(api, 'response')).toHaveLength(1));
    expect(posted(api, 'response')[0]).toEqual({ type: 'redirect', status: 403, redirect_url: 'https://www.example.com/blocked.html', content: '' });
  });

  it('custom content must not be empty', async () => {
    const { api } = await open('response');
    await choose('web-response-type', 'web-response-type-custom');
    save('response');
    await waitFor(() => expect(fieldError('response', 'content')).toBeTruthy());
    expect(posted(api, 'response')).toHaveLength(0);
  });

  it("shows the server's field error on its field", async () => {
    await open('response', { 'POST /website/response': refused('Status is not valid', 'status') });
    save('response');
    await waitFor(() => expect(fieldError('response', 'status')).toBe('Status is not valid'));
  });
});

describe('lists', () => {
  it('saves lists, spiders and the malicious-IP areas', async () => {
    const { api } = await open('lists');
    fireEvent.click(screen.getByTestId('web-lists-url_black.enabled'));
    type('web-lists-url_black.entries', '/wp-login.php\n/xmlrpc.php');
    type('web-lists-ip_white.ips', '203.0.113.0/24');
    fireEvent.click(screen.getByTestId('web-lists-spider-yandex'));
    await choose('web-lists-spider.fake_mode', 'web-lists-spider.fake_mode-loose');
    fireEvent.click(screen.getByTestId('web-lists-malicious.enabled'));
    const areas = screen.getByTestId('web-lists-malicious.areas');
    fireEvent.mouseDown(areas.querySelector('input') ?? areas);
    fireEvent.change(areas.querySelector('input')!, { target: { value: 'guang' } });
    fireEvent.click(await screen.findByTestId('web-lists-malicious.areas-CN-GD'));
    save('lists');
    await waitFor(() => expect(posted(api, 'lists')).toHaveLength(1));
    expect(posted(api, 'lists')[0]).toEqual({
      ...defaults.lists,
      url_black: { enabled: true, entries: ['/wp-login.php', '/xmlrpc.php'] },
      ip_white: { enabled: false, ips: ['203.0.113.0/24'], areas: [] },
      spider: { ...defaults.lists.spider, spiders: defaults.lists.spider.spiders.filter((s) => s !== 'yandex'), fake_mode: 'loose' },
      malicious: { enabled: true, ips: [], areas: ['CN-GD'] },
    });
  });

  it("shows the server's field error on its field", async () => {
    await open('lists', { 'POST /website/lists': refused('Address is not valid', 'ip_black.ips.0') });
    save('lists');
    await waitFor(() => expect(fieldError('lists', 'ip_black.ips')).toBe('Entry 1: Address is not valid'));
  });
});

describe('own address on a blacklist', () => {
  // The address comes with the signed-in user's info (GET /info `client_ip`), whatever the role.
  const mine = { info: { client_ip: '198.51.100.20' } };

  it('asks before saving an enabled blacklist that covers the browser\'s address; cancel posts nothing, confirm saves', async () => {
    const { api } = await open('lists', {}, mine);
    fireEvent.click(screen.getByTestId('web-lists-ip_black.enabled'));
    type('web-lists-ip_black.ips', '203.0.113.7\n198.51.100.0/24');
    save('lists');
    expect((await screen.findByTestId('web-lists-own-ip')).textContent).toBe(
      'Your IP 198.51.100.20 is covered by 198.51.100.0/24 on a blacklist: your own requests to the protected sites will be refused. Save anyway?',
    );
    fireEvent.click(screen.getByTestId('web-lists-own-ip-cancel'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(posted(api, 'lists')).toHaveLength(0);

    save('lists');
    // The cancelled dialog may still be fading out: the newest one is the last.
    await waitFor(() => expect(screen.getAllByTestId('web-lists-own-ip-confirm').length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByTestId('web-lists-own-ip-confirm').at(-1)!);
    await waitFor(() => expect(posted(api, 'lists')).toHaveLength(1));
    expect(posted(api, 'lists')[0]).toMatchObject({ ip_black: { enabled: true, ips: ['203.0.113.7', '198.51.100.0/24'] } });
  });

  it('the malicious-IP blacklist counts too; a disabled list or an address elsewhere saves at once', async () => {
    const { api } = await open('lists', {}, mine);
    type('web-lists-ip_black.ips', '198.51.100.20');
    type('web-lists-malicious.ips', '198.51.100.1-198.51.100.9');
    fireEvent.click(screen.getByTestId('web-lists-malicious.enabled'));
    save('lists');
    await waitFor(() => expect(posted(api, 'lists')).toHaveLength(1));
    expect(screen.queryByTestId('web-lists-own-ip')).toBeNull();

    // Saved: the form shows what the console answers again (here the defaults), so enable the list anew.
    await waitFor(() => expect((screen.getByTestId('web-lists-malicious.ips') as HTMLTextAreaElement).value).toBe(''));
    fireEvent.click(screen.getByTestId('web-lists-malicious.enabled'));
    type('web-lists-malicious.ips', '198.51.100.0/27');
    save('lists');
    expect((await screen.findByTestId('web-lists-own-ip')).textContent).toContain('198.51.100.0/27');
    expect(posted(api, 'lists')).toHaveLength(1);
  });

  it('warns a technician too, who may not read the super whitelist, without asking the system calls', async () => {
    const { api } = await open('lists', {}, { ...mine, role: 'technician' });
    fireEvent.click(screen.getByTestId('web-lists-ip_black.enabled'));
    type('web-lists-ip_black.ips', '198.51.100.20');
    save('lists');
    expect((await screen.findByTestId('web-lists-own-ip')).textContent).toContain('198.51.100.20');
    expect(posted(api, 'lists')).toHaveLength(0);
    expect(api.callsTo('GET /system/trust/ip')).toHaveLength(0);
  });
});

describe('sql keyword reload', () => {
  it('reloads the libraries from the console into the boxes', async () => {
    const keywords = { block: { enabled: true, rules: ['casino'] }, filter: { enabled: false, rules: [] }, record: { enabled: true, rules: ['union++select'] } };
    await open('sql', { 'POST /website/sql_getkeywords': ok(keywords) });
    fireEvent.click(screen.getByTestId('web-sql-reload-keywords'));
    await waitFor(() => expect((screen.getByTestId('web-sql-keywords.block.rules') as HTMLTextAreaElement).value).toBe('casino'));
    expect((screen.getByTestId('web-sql-keywords.record.rules') as HTMLTextAreaElement).value).toBe('union++select');
  });
});

describe('read only', () => {
  it('a role without the edit action sees the settings but cannot change them', async () => {
    await openWebsite('protect', { actions: ['get', 'query'] });
    await screen.findByTestId('web-protect-cc.per_minute');
    expect(screen.queryByTestId('web-protect-save')).toBeNull();
    expect((screen.getByTestId('web-protect-cc.per_minute') as HTMLInputElement).disabled).toBe(true);
  });
});

describe('module note', () => {
  it('says so while the website module is OFF', async () => {
    await openWebsite('base', { websiteOn: false });
    expect(await screen.findByTestId('web-module-off')).toBeTruthy();
  });
});
