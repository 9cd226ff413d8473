import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CommonArea, FirewallRuleInput } from '@rampart/contracts';
import { type } from './helpers/antd.ts';
import { ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { done, openFirewall, ruleFixture, switchToChinese } from './firewall/helpers.ts';

const at = new Date(2025, 4, 6, 10, 0, 0).getTime();
const area = (id: number, extra: Partial<CommonArea> = {}): CommonArea => ({
  id, name: `Area ${id}`, members: ['JP', 'CN-GD'], remark: '', rules: 0, created_at: at, updated_at: at, ...extra,
});
const areas = [area(1, { name: 'East Asia', rules: 2, remark: 'offices' }), area(2, { name: 'Americas', members: ['US', 'CA', 'MX', 'BR', 'AR', 'CL', 'PE', 'CO', 'VE', 'EC'] })];

async function openAreas(handlers = {}) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /system/areas': ok({ total: areas.length, list: areas }),
      'POST /system/areas': ok({ ...done(), id: 3 }, 'Saved'),
      'POST /system/areas_delete': ok({ changed: 1, refused: null, rules: 0 }, 'Deleted 1 common area(s)'),
      ...handlers,
    },
  });
  renderApp('/system/areas');
  await screen.findByTestId('areas-page');
  return api;
}

async function pick(selectTestId: string, search: string, optionTestId: string) {
  const select = screen.getByTestId(selectTestId);
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  fireEvent.change(select.querySelector('input')!, { target: { value: search } });
  fireEvent.click(await screen.findByTestId(optionTestId));
}

describe('common areas (system areas tab)', () => {
  it('lists name, members by name, how many rules use them, remark; long member lists are cut', async () => {
    const api = await openAreas();
    const row1 = await screen.findByTestId('area-row-1');
    for (const text of ['East Asia', 'Japan', 'Guangdong', 'offices', '2025-05-06 10:00:00']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('area-rules-1').textContent).toBe('2');
    expect(screen.getByTestId('area-members-2').textContent).toContain('+2');
    type('area-keyword', 'east');
    fireEvent.click(screen.getByTestId('area-search'));
    await waitFor(() => expect(Object.fromEntries(api.callsTo('GET /system/areas').at(-1)!.query)).toEqual({ keyword: 'east', page: '1', size: '20' }));
  });

  it('adding checks the name and members before sending, then posts them', async () => {
    const api = await openAreas();
    fireEvent.click(await screen.findByTestId('area-add'));
    await screen.findByTestId('area-form');
    fireEvent.click(screen.getByTestId('area-save'));
    expect((await screen.findByTestId('area-error-name')).textContent).toBe('Enter the area name');
    expect(screen.getByTestId('area-error-members').textContent).toBe('Choose at least one country or province');
    type('area-name', 'x'.repeat(33));
    fireEvent.click(screen.getByTestId('area-save'));
    expect((await screen.findByTestId('area-error-name')).textContent).toBe('Area names are at most 32 characters');
    expect(api.callsTo('POST /system/areas')).toHaveLength(0);

    type('area-name', 'Neighbours');
    await pick('area-members', 'japan', 'area-member-JP');
    await pick('area-members', 'CN-ZJ', 'area-member-CN-ZJ');
    type('area-remark', 'partners');
    fireEvent.click(screen.getByTestId('area-save'));
    await waitFor(() => expect(api.callsTo('POST /system/areas')).toHaveLength(1));
    expect(api.callsTo('POST /system/areas')[0]!.body).toEqual({ name: 'Neighbours', members: ['JP', 'CN-ZJ'], remark: 'partners' });
    await waitFor(() => expect(screen.queryByTestId('area-form')).toBeNull());
  });

  it('editing sends the id and says how many rules it re-applies; deleting asks first', async () => {
    const api = await openAreas();
    fireEvent.click(await screen.findByTestId('area-edit-1'));
    expect((await screen.findByTestId('area-in-use')).textContent).toContain('Used by 2 firewall rule(s)');
    type('area-name', 'East Asia 2');
    fireEvent.click(screen.getByTestId('area-save'));
    await waitFor(() => expect(api.callsTo('POST /system/areas')).toHaveLength(1));
    expect(api.callsTo('POST /system/areas')[0]!.body).toEqual({ id: 1, name: 'East Asia 2', members: ['JP', 'CN-GD'], remark: 'offices' });

    fireEvent.click(screen.getByTestId('area-delete-2'));
    fireEvent.click(await screen.findByTestId('area-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/areas_delete')).toHaveLength(1));
    expect(api.callsTo('POST /system/areas_delete')[0]!.query.get('id')).toBe('2');
  });

  it('a save that cuts the administrator off opens the probation dialog', async () => {
    await openAreas({
      'POST /system/areas': ok({ ...done({ probation: { token: 'tok', expires_at: Date.now() + 60_000, warnings: ['own_ip_blocked'] }, warnings: ['own_ip_blocked'] }), id: 1 }),
    });
    fireEvent.click(await screen.findByTestId('area-edit-1'));
    fireEvent.click(await screen.findByTestId('area-save'));
    expect(await screen.findByTestId('fw-probation')).toBeTruthy();
  });

  it('speaks Chinese', async () => {
    await switchToChinese();
    await openAreas();
    expect((await screen.findByTestId('area-row-1')).textContent).toContain('广东省');
    fireEvent.click(screen.getByTestId('area-add'));
    fireEvent.click(await screen.findByTestId('area-save'));
    expect((await screen.findByTestId('area-error-name')).textContent).toBe('请输入区域名称');
    expect(screen.getByTestId('area-error-members').textContent).toBe('请至少选择一个国家或省份');
  });
});

describe('common areas in firewall rules', () => {
  const common = { list: [{ code: 'common:1', kind: 'common', name: 'East Asia', members: ['JP', 'CN-GD'] }] };

  it('rules name their common areas, and the picker offers them by name', async () => {
    const { api } = await openFirewall('rule_in', 'fw-rules-in-page', {
      handlers: {
        'GET /resource/area': (call: ApiCall) => (call.query.get('kind') === 'common' ? ok(common) : ok({ list: [] })),
        'GET /firewall/rules': ok({ total: 1, list: [ruleFixture(1, { ips: [], areas: ['common:1', 'US'] })] }),
        'POST /firewall/rules/add': ok(done(), 'Saved'),
      },
    });
    expect((await screen.findByTestId('fw-rule-area-tag-1-common-1')).textContent).toBe('East Asia');
    fireEvent.click(screen.getByTestId('fw-rule-add'));
    await screen.findByTestId('fw-rule-form');
    type('fw-rule-ports', '22');
    type('fw-rule-priority', '50');
    await pick('fw-rule-areas', 'east', 'fw-rule-area-common-1');
    fireEvent.click(screen.getByTestId('fw-rule-save'));
    await waitFor(() => expect(api.callsTo('POST /firewall/rules/add')).toHaveLength(1));
    expect((api.callsTo('POST /firewall/rules/add')[0]!.body as FirewallRuleInput).areas).toEqual(['common:1']);
  });
});
