import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FirewallRuleInput } from '@rampart/contracts';
import { choose, type } from '../helpers/antd.ts';
import { ok, refused, type ApiCall } from '../helpers/mockApi.ts';
import { done, openFirewall, ruleFixture, statusFixture, switchToChinese } from './helpers.ts';

const rules = [
  ruleFixture(1),
  ruleFixture(2, { protocol: 'tcp_udp', ports: '80,443,5500-5600', ips: ['*'], areas: ['CN-GD', 'US'], action: 'deny', priority: 5, enabled: false, remark: '' }),
];

async function openRules(handlers = {}, tab: 'rule_in' | 'rule_out' = 'rule_in') {
  return openFirewall(tab, `fw-rules-${tab === 'rule_in' ? 'in' : 'out'}-page`, {
    handlers: {
      'GET /firewall/rules': ok({ total: rules.length, list: rules }),
      'POST /firewall/rules/add': ok(done(), 'Saved'),
      'POST /firewall/rules/edit': ok(done(), 'Saved'),
      'POST /firewall/rules/enable': ok(done(), 'Done'),
      'POST /firewall/rules/disable': ok(done(), 'Done'),
      'POST /firewall/rules/delete': ok(done(), 'Deleted'),
      ...handlers,
    },
  });
}

const listQueries = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('GET /firewall/rules').map((c) => Object.fromEntries(c.query));
const adds = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('POST /firewall/rules/add').map((c) => c.body as FirewallRuleInput);
const fieldError = (field: string) => screen.queryByTestId(`fw-rule-error-${field}`)?.textContent;

async function openAdd() {
  fireEvent.click(await screen.findByTestId('fw-rule-add'));
  await screen.findByTestId('fw-rule-form');
}
const save = () => fireEvent.click(screen.getByTestId('fw-rule-save'));

describe('firewall rules (rule_in / rule_out)', () => {
  it('lists the rules: priority, protocol, ports, sources with area names, action, switch, remark, time', async () => {
    const { api } = await openRules();
    const row1 = await screen.findByTestId('fw-rule-row-1');
    for (const text of ['10', 'TCP', '22', '203.0.113.0/24', 'Allow', 'rule 1', '2025-05-06 10:00:00']) expect(row1.textContent).toContain(text);
    const row2 = screen.getByTestId('fw-rule-row-2');
    for (const text of ['TCP + UDP', '80,443,5500-5600', 'All addresses', 'Guangdong', 'United States', 'Deny']) expect(row2.textContent).toContain(text);
    expect(screen.getByTestId('fw-rule-switch-1').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('fw-rule-switch-2').getAttribute('aria-checked')).toBe('false');
    expect(listQueries(api)[0]).toEqual({ direction: 'in', page: '1', size: '20' });
    expect(api.callsTo('GET /firewall/status')).toHaveLength(1);
  });

  it('names areas in Chinese when the console is in Chinese', async () => {
    await switchToChinese();
    await openRules();
    const row2 = await screen.findByTestId('fw-rule-row-2');
    expect(row2.textContent).toContain('广东省');
    expect(row2.textContent).toContain('美国');
    expect(row2.textContent).toContain('拒绝');
  });

  it('the outbound tab asks for direction=out', async () => {
    const { api } = await openRules({}, 'rule_out');
    await waitFor(() => expect(listQueries(api)[0]).toEqual({ direction: 'out', page: '1', size: '20' }));
    expect(screen.getByTestId('fw-rule-add').textContent).toBe('Add outbound rule');
  });

  it('searching sends the keyword and goes back to page 1', async () => {
    const { api } = await openRules();
    await screen.findByTestId('fw-rule-row-1');
    type('fw-rule-keyword', ' ssh ');
    fireEvent.click(screen.getByTestId('fw-rule-search'));
    await waitFor(() => expect(listQueries(api).at(-1)).toEqual({ direction: 'in', keyword: 'ssh', page: '1', size: '20' }));
  });

  it('the add form refuses bad ports, a bad IP line and a priority out of range, and sends nothing', async () => {
    const { api } = await openRules();
    await openAdd();
    type('fw-rule-ports', '80,70000');
    type('fw-rule-ips', '203.0.113.7\n\n10.0.0.300');
    type('fw-rule-priority', '120');
    save();
    await waitFor(() => expect(fieldError('ports')).toBe('Ports look like 80,443,5500-5600; * means every port'));
    expect(fieldError('ips')).toBe('Line 3 (10.0.0.300): Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *');
    expect(fieldError('priority')).toBe('Priority is a whole number from 1 to 99; 1 is the highest');
    expect(adds(api)).toHaveLength(0);
  });

  it('empty fields read "Enter ports", "Enter the access source", "Enter priority"', async () => {
    const { api } = await openRules();
    await openAdd();
    // a new rule starts at priority 50; emptied, the field asks for one
    expect((screen.getByTestId('fw-rule-priority') as HTMLInputElement).value).toBe('50');
    type('fw-rule-priority', '');
    save();
    await waitFor(() => expect(fieldError('ports')).toBe('Enter ports'));
    expect(fieldError('ips')).toBe('Enter the access source (IPs or areas)');
    expect(fieldError('priority')).toBe('Enter priority');
    expect(adds(api)).toHaveLength(0);
  });

  it('the same refusals read in Chinese', async () => {
    await switchToChinese();
    const { api } = await openRules();
    await openAdd();
    type('fw-rule-ports', '80-');
    type('fw-rule-ips', '1.2.3.4\nnot-an-ip');
    type('fw-rule-priority', '0');
    save();
    await waitFor(() => expect(fieldError('ports')).toBe('端口格式有误，例如 80,443,5500-5600，* 表示全部端口'));
    expect(fieldError('ips')).toBe('第 2 行（not-an-ip）：IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *');
    expect(fieldError('priority')).toBe('优先级须为 1-99 的整数，1 最高');
    expect(adds(api)).toHaveLength(0);
  });

  it('a valid rule posts exactly the schema body; the list is fetched again', async () => {
    const { api } = await openRules();
    await openAdd();
    type('fw-rule-ports', ' 80, 443 ,5500-5600');
    type('fw-rule-ips', '203.0.113.7\n198.51.100.0/24, 192.0.2.1-192.0.2.9\n\n2001:db8::1');
    type('fw-rule-priority', '5');
    type('fw-rule-remark', ' web ');
    fireEvent.click(screen.getByTestId('fw-rule-action-deny'));
    const before = listQueries(api).length;
    save();
    await waitFor(() => expect(adds(api)).toHaveLength(1));
    expect(adds(api)[0]).toEqual({
      direction: 'in', protocol: 'tcp', ports: '80, 443 ,5500-5600', ips: ['203.0.113.7', '198.51.100.0/24', '192.0.2.1-192.0.2.9', '2001:db8::1'],
      areas: [], action: 'deny', priority: 5, enabled: true, remark: 'web',
    });
    await waitFor(() => expect(screen.queryByTestId('fw-rule-form')).toBeNull());
    await waitFor(() => expect(listQueries(api).length).toBeGreaterThan(before));
  });

  it('areas are picked by search; ICMP disables the ports and sends *', async () => {
    const { api } = await openRules();
    await openAdd();
    await choose('fw-rule-protocol', 'fw-rule-protocol-icmp');
    const ports = screen.getByTestId('fw-rule-ports') as HTMLInputElement;
    expect(ports.disabled).toBe(true);
    expect(ports.value).toBe('*');
    const areas = screen.getByTestId('fw-rule-areas');
    fireEvent.mouseDown(areas.querySelector('input') ?? areas);
    fireEvent.change(areas.querySelector('input')!, { target: { value: 'guang' } });
    fireEvent.click(await screen.findByTestId('fw-rule-area-CN-GD'));
    // the priority is left at the new rule's default
    save();
    await waitFor(() => expect(adds(api)).toHaveLength(1));
    expect(adds(api)[0]).toMatchObject({ protocol: 'icmp', ports: '*', ips: [], areas: ['CN-GD'], priority: 50 });
  });

  it('warns in the form when an inbound deny rule covers every source and every port', async () => {
    await openRules();
    await openAdd();
    fireEvent.click(screen.getByTestId('fw-rule-action-deny'));
    type('fw-rule-ips', '*');
    type('fw-rule-ports', '22');
    expect(screen.queryByTestId('fw-rule-deny-all')).toBeNull();
    type('fw-rule-ports', '1-1000,1001-65535');
    expect(screen.getByTestId('fw-rule-deny-all').textContent).toContain('denies every source on every port');
    fireEvent.click(screen.getByTestId('fw-rule-action-allow'));
    expect(screen.queryByTestId('fw-rule-deny-all')).toBeNull();
  });

  it('editing posts the rule with its id', async () => {
    const { api } = await openRules();
    fireEvent.click(await screen.findByTestId('fw-rule-edit-2'));
    await screen.findByTestId('fw-rule-form');
    expect((screen.getByTestId('fw-rule-ips') as HTMLTextAreaElement).value).toBe('*');
    type('fw-rule-remark', 'edited');
    save();
    await waitFor(() => expect(api.callsTo('POST /firewall/rules/edit')).toHaveLength(1));
    expect(api.callsTo('POST /firewall/rules/edit')[0]?.body).toEqual({
      id: 2, direction: 'in', protocol: 'tcp_udp', ports: '80,443,5500-5600', ips: ['*'], areas: ['CN-GD', 'US'], action: 'deny', priority: 5, enabled: false, remark: 'edited',
    });
  });

  it('HTTP 400 naming ips.N marks the address box with that line', async () => {
    await openRules({ 'POST /firewall/rules/add': refused('Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *', 'ips.1') });
    await openAdd();
    type('fw-rule-ports', '22');
    type('fw-rule-ips', '203.0.113.7\n198.51.100.1');
    type('fw-rule-priority', '3');
    save();
    await waitFor(() => expect(fieldError('ips')).toBe('Line 2 (198.51.100.1): Not a valid IP: use IPv4, IPv6, CIDR, a range (a-b) or *'));
    expect(screen.getByTestId('fw-rule-form')).toBeTruthy();
  });

  it('bulk disable posts the selected ids; the switch enables one rule', async () => {
    const { api } = await openRules();
    fireEvent.click(await screen.findByTestId('fw-rule-select-1'));
    fireEvent.click(screen.getByTestId('fw-rule-select-2'));
    expect(screen.getByTestId('fw-rule-selected').textContent).toBe('2 selected');
    fireEvent.click(screen.getByTestId('fw-rule-disable'));
    await waitFor(() => expect(api.callsTo('POST /firewall/rules/disable').map((c) => c.body)).toEqual([{ ids: [1, 2] }]));
    await waitFor(() => expect(screen.queryByTestId('fw-rule-selected')).toBeNull());
    fireEvent.click(screen.getByTestId('fw-rule-switch-2'));
    await waitFor(() => expect(api.callsTo('POST /firewall/rules/enable').map((c) => c.body)).toEqual([{ ids: [2] }]));
  });

  it('bulk delete asks first, then posts the ids', async () => {
    const { api } = await openRules();
    fireEvent.click(await screen.findByTestId('fw-rule-select-2'));
    fireEvent.click(screen.getByTestId('fw-rule-delete'));
    expect((await screen.findAllByText('Delete the 1 selected rule(s)? This cannot be undone.')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /firewall/rules/delete')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('fw-rule-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /firewall/rules/delete').map((c) => c.body)).toEqual([{ ids: [2] }]));
  });

  it('a warning answer (code 1) shows its warnings in words', async () => {
    await openRules({ 'POST /firewall/rules/disable': { body: { code: 1, msg: 'Warning', data: done({ warnings: ['panel_port_closed'] }) } } });
    fireEvent.click(await screen.findByTestId('fw-rule-select-1'));
    fireEvent.click(screen.getByTestId('fw-rule-disable'));
    expect((await screen.findByTestId('fw-warning-panel_port_closed')).textContent).toBe('The panel port is not open in the firewall.');
  });

  it('shows a banner with the server message when the firewall is unavailable', async () => {
    await openRules({ 'GET /firewall/status': ok(statusFixture({ kernel: 'unavailable', message: 'The firewall needs root and nftables' })) });
    const banner = await screen.findByTestId('fw-kernel-banner');
    expect(banner.textContent).toContain('The firewall cannot work on this server');
    expect(within(banner).getByText('The firewall needs root and nftables')).toBeTruthy();
  });
});
