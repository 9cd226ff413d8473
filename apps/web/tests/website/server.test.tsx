import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserInfo, WebsiteDiscoveredSite, WebsiteSiteView } from '@rampart/contracts';
import { type } from '../helpers/antd.ts';
import { ok, refused } from '../helpers/mockApi.ts';
import { userInfoKey } from '../../src/session/useUserInfo.ts';
import { openWebsite, switchToChinese } from './helpers.ts';

const site = (id: number, extra: Partial<WebsiteSiteView> = {}): WebsiteSiteView => ({
  id,
  name: `shop-${id}`,
  status: 'on',
  running: true,
  listen: [{ address: '0.0.0.0', port: 80, tls: false }],
  server_names: [`shop${id}.example.com`],
  upstreams: ['http://127.0.0.1:8080'],
  tls_cert: '',
  tls_key_set: false,
  trusted_proxies: [],
  created_at: 1,
  updated_at: 1,
  ...extra,
});

const servers = (list: WebsiteSiteView[]) => ok({ list, is_any_open: list.some((s) => s.status === 'on'), total: list.length });
const calls = (api: { callsTo(k: string): { body: unknown }[] }, path: string) => api.callsTo(`POST /website/${path}`).map((c) => c.body);
const cert = '-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----';
const key = '-----BEGIN PRIVATE KEY-----\nY\n-----END PRIVATE KEY-----';

describe('server tab', () => {
  it('lists the protected sites', async () => {
    await openWebsite('server', { handlers: { 'GET /website/server': servers([site(1), site(2, { status: 'off', running: false, listen: [{ address: '::', port: 443, tls: true }] })]) } });
    const row = await screen.findByTestId('web-server-row-2');
    expect(within(row).getByText('shop-2')).toBeTruthy();
    expect(within(row).getByText(':::443 TLS')).toBeTruthy();
    expect(within(row).getByTestId('web-server-running-2').textContent).toBe('Stopped');
    expect(screen.getByTestId('web-server-status-1').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('web-server-status-2').getAttribute('aria-checked')).toBe('false');
  });

  it('reads in Chinese', async () => {
    await switchToChinese();
    await openWebsite('server', { handlers: { 'GET /website/server': servers([site(1)]) } });
    expect(await screen.findByText('添加站点')).toBeTruthy();
    expect(screen.getByText('发现本机站点')).toBeTruthy();
    expect(screen.getByTestId('web-server-running-1').textContent).toBe('运行中');
  });

  it('adds a site with TLS and upstreams one per line', async () => {
    const { api } = await openWebsite('server', { handlers: { 'POST /website/server': ok({ id: 3 }) } });
    fireEvent.click(screen.getByTestId('web-server-add'));
    type('web-site-name', 'blog');
    type('web-site-listen-0-port', '443');
    fireEvent.click(screen.getByTestId('web-site-listen-0-tls'));
    type('web-site-tls_cert', cert);
    type('web-site-tls_key', key);
    type('web-site-upstreams', 'http://127.0.0.1:8080\n\nhttp://127.0.0.1:8081');
    type('web-site-server_names', 'Blog.example.com');
    fireEvent.click(screen.getByTestId('web-site-save'));
    await waitFor(() => expect(calls(api, 'server')).toHaveLength(1));
    expect(calls(api, 'server')[0]).toEqual({
      name: 'blog',
      status: 'on',
      running: true,
      listen: [{ address: '0.0.0.0', port: 443, tls: true }],
      server_names: ['blog.example.com'],
      upstreams: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
      tls_cert: cert,
      tls_key: key,
      trusted_proxies: [],
    });
  });

  it('checks the site before sending: TLS without a certificate, a bad origin', async () => {
    const { api } = await openWebsite('server');
    fireEvent.click(screen.getByTestId('web-server-add'));
    type('web-site-name', 'blog');
    fireEvent.click(screen.getByTestId('web-site-listen-0-tls'));
    type('web-site-upstreams', 'http://127.0.0.1:8080\nftp://origin');
    fireEvent.click(screen.getByTestId('web-site-save'));
    expect(await screen.findByTestId('web-site-error-tls_cert')).toBeTruthy();
    expect(screen.getByTestId('web-site-error-upstreams')).toBeTruthy();
    expect(calls(api, 'server')).toHaveLength(0);
  });

  it("shows the server's field error on its field in the modal", async () => {
    await openWebsite('server', { handlers: { 'POST /website/server': refused('Port 80 is used by nginx', 'listen.0.port') } });
    fireEvent.click(screen.getByTestId('web-server-add'));
    type('web-site-name', 'blog');
    type('web-site-upstreams', 'http://127.0.0.1:8080');
    fireEvent.click(screen.getByTestId('web-site-save'));
    expect((await screen.findByTestId('web-site-error-listen.0.port')).textContent).toBe('Port 80 is used by nginx');
  });

  it('edits keeping the stored key, switches status and running, deletes after confirming', async () => {
    const { api } = await openWebsite('server', {
      handlers: {
        'GET /website/server': servers([site(1, { listen: [{ address: '0.0.0.0', port: 443, tls: true }], tls_cert: cert, tls_key_set: true })]),
        'POST /website/server/edit': ok(null),
        'POST /website/server_status': ok(null),
        'POST /website/server_running': ok(null),
        'POST /website/server_delete': ok(null),
      },
    });
    fireEvent.click(await screen.findByTestId('web-server-edit-1'));
    type('web-site-name', 'shop');
    fireEvent.click(screen.getByTestId('web-site-save'));
    await waitFor(() => expect(calls(api, 'server/edit')).toHaveLength(1));
    expect(calls(api, 'server/edit')[0]).toMatchObject({ id: 1, name: 'shop', tls_cert: cert, tls_key: null });

    fireEvent.click(screen.getByTestId('web-server-status-1'));
    await waitFor(() => expect(calls(api, 'server_status')).toEqual([{ ids: [1], status: 'off' }]));
    fireEvent.click(screen.getByTestId('web-server-stop-1'));
    await waitFor(() => expect(calls(api, 'server_running')).toEqual([{ ids: [1], running: false }]));

    fireEvent.click(screen.getByTestId('web-server-delete-1'));
    fireEvent.click(await screen.findByTestId('web-server-delete-confirm'));
    await waitFor(() => expect(calls(api, 'server_delete')).toEqual([{ ids: [1] }]));
  });

  it('keeps saying that the gateway refused a change until a later change is taken', async () => {
    const report = (state: string, reason?: string) => ok({ gateway: { state, ...(reason ? { reason } : {}) } });
    let answer = { body: { code: 1, msg: 'Saved, but the gateway refused the new configuration', data: { gateway: { state: 'refused', reason: 'bind EADDRINUSE 0.0.0.0:80' } } } };
    await openWebsite('server', {
      handlers: { 'GET /website/server': servers([site(1)]), 'POST /website/server_status': () => answer },
    });
    fireEvent.click(await screen.findByTestId('web-server-status-1'));
    expect((await screen.findByTestId('web-gateway-report')).textContent).toBe(
      'The gateway refused the last change and keeps serving its previous configuration: bind EADDRINUSE 0.0.0.0:80. Correct the setting (or free what it names) and save again.',
    );
    answer = report('not_running') as typeof answer;
    fireEvent.click(screen.getByTestId('web-server-status-1'));
    await waitFor(() => expect(screen.getByTestId('web-gateway-report').textContent).toBe('The gateway is not running: changes are saved and take effect when it starts.'));
    answer = report('reloaded') as typeof answer;
    fireEvent.click(screen.getByTestId('web-server-status-1'));
    await waitFor(() => expect(screen.queryByTestId('web-gateway-report')).toBeNull());
  });

  it('discovers local nginx / Apache sites and offers to protect them through the add form', async () => {
    const discovered: WebsiteDiscoveredSite[] = [
      {
        server: 'nginx', name: 'default', listen: [{ address: '0.0.0.0', port: 8080, tls: false }], server_names: ['www.example.com'],
        upstream_hint: 'http://127.0.0.1:8082', origin_move: { from: '0.0.0.0:8080', to: '127.0.0.1:8082', tls: false }, source: '/etc/nginx/sites-enabled/default:1',
      },
      {
        server: 'apache', name: 'wiki', listen: [{ address: '0.0.0.0', port: 8081, tls: false }], server_names: ['shop1.example.com'],
        upstream_hint: 'http://127.0.0.1:8083', origin_move: { from: '0.0.0.0:8081', to: '127.0.0.1:8083', tls: false }, source: '/etc/apache2/sites-enabled/wiki.conf:1',
      },
    ];
    const { api } = await openWebsite('server', {
      handlers: { 'GET /website/server': servers([site(1)]), 'GET /website/server/discover': ok({ sites: discovered }), 'POST /website/server': ok({ id: 2 }) },
    });
    await screen.findByTestId('web-server-row-1');
    fireEvent.click(screen.getByTestId('web-server-discover'));
    await screen.findByTestId('web-server-discover-list');
    // The Apache site's host name is already protected by site 1.
    expect(screen.queryByTestId('web-server-discovered-1-protect')).toBeNull();
    fireEvent.click(screen.getByTestId('web-server-discovered-0-protect'));
    expect((await screen.findByTestId('web-site-name') as HTMLInputElement).value).toBe('www.example.com');
    // The form says what to change in nginx first; the suggested origin is where nginx moves, which the form accepts.
    expect((await screen.findByTestId('web-site-move-first')).textContent).toBe(
      'Before saving: in /etc/nginx/sites-enabled/default:1, change the nginx listener 0.0.0.0:8080 to 127.0.0.1:8082 and reload nginx. The gateway then listens on 0.0.0.0:8080 and forwards to http://127.0.0.1:8082.',
    );
    expect((screen.getByTestId('web-site-upstreams') as HTMLTextAreaElement).value).toBe('http://127.0.0.1:8082');
    // Typed back to where nginx listens now, the origin would be the gateway itself: refused on the field.
    type('web-site-upstreams', 'http://127.0.0.1:8080');
    fireEvent.click(screen.getByTestId('web-site-save'));
    expect((await screen.findByTestId('web-site-error-upstreams')).textContent).toBe(
      "http://127.0.0.1:8080 is one of this site's own listeners: the gateway would forward to itself. Move the web server to another port (e.g. 127.0.0.1:8080) and enter that as the origin.",
    );
    expect(calls(api, 'server')).toHaveLength(0);
    type('web-site-upstreams', 'http://127.0.0.1:8082');
    fireEvent.click(screen.getByTestId('web-site-save'));
    await waitFor(() => expect(calls(api, 'server')).toHaveLength(1));
    expect(calls(api, 'server')[0]).toMatchObject({ listen: [{ address: '0.0.0.0', port: 8080, tls: false }], upstreams: ['http://127.0.0.1:8082'], server_names: ['www.example.com'] });
  });

  it('says in Chinese too what to change first, and for an HTTPS listener that the gateway serves the certificate', async () => {
    const discovered: WebsiteDiscoveredSite[] = [{
      server: 'apache', name: 'secure', listen: [{ address: '0.0.0.0', port: 443, tls: true }], server_names: ['secure.example.com'],
      upstream_hint: 'http://127.0.0.1:8080', origin_move: { from: '0.0.0.0:443', to: '127.0.0.1:8080', tls: true }, source: '/etc/apache2/sites-enabled/secure.conf:1',
    }];
    await openWebsite('server', { handlers: { 'GET /website/server': servers([]), 'GET /website/server/discover': ok({ sites: discovered }) } });
    await switchToChinese();
    fireEvent.click(await screen.findByTestId('web-server-discover'));
    fireEvent.click(await screen.findByTestId('web-server-discovered-0-protect'));
    expect((await screen.findByTestId('web-site-move-first')).textContent).toBe(
      '保存前：请在 /etc/apache2/sites-enabled/secure.conf:1 中把 Apache 的 HTTPS 监听 0.0.0.0:443 改为 127.0.0.1:8080 上的普通 HTTP，并重新加载 Apache。之后由网关用下方的证书在 0.0.0.0:443 提供 HTTPS，转发到 http://127.0.0.1:8080。',
    );
  });

  it('after the module is switched ON with no site open, offers to open them all', async () => {
    const { api, view } = await openWebsite('server', {
      websiteOn: false,
      handlers: { 'GET /website/server': servers([site(1, { status: 'off' }), site(2, { status: 'off' })]), 'POST /website/server_status': ok(null) },
    });
    await screen.findByTestId('web-server-row-2');
    // The header's module switch stores the new state in the user info; the page reacts to that.
    act(() => view.queryClient.setQueryData<UserInfo>(userInfoKey, (old) => (old ? { ...old, module_list: { ...old.module_list, website: 1 } } : old)));
    fireEvent.click(await screen.findByTestId('web-server-open-all-confirm'));
    await waitFor(() => expect(calls(api, 'server_status')).toEqual([{ ids: [1, 2], status: 'on' }]));
  });
});
