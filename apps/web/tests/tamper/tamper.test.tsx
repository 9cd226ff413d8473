import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cmsTemplateRules, cmsTemplateViews, type GuardStatus, type NamingRule, type TamperChange, type TamperRule } from '@rampart/contracts';
import { choose, type } from '../helpers/antd.ts';
import { ok, refused, type ApiCall, type Handler } from '../helpers/mockApi.ts';
import { renderApp } from '../helpers/renderApp.tsx';
import { signedInAs } from '../helpers/signedIn.ts';
import { switchToChinese } from '../firewall/helpers.ts';

const at = new Date(2025, 4, 6, 10).getTime();
const done = (changed = 1): TamperChange => ({ changed, ids: [1], refused: null, warnings: [] });
const status = (extra: Partial<GuardStatus> = {}): GuardStatus => ({
  backend: 'fanotify', running: true, kernel: '6.18.0', enforced_ops: ['r', 'x', 'w', 'c'], missing_ops: ['d', 'n', 't'],
  causes: ['guard_lsm_refused'], warnings: [], objects: 3, rules: 2, generation: 1, applied_at: at, ...extra,
});
const tamperRule = (id: number, extra: Partial<TamperRule> = {}): TamperRule => ({
  id, enabled: true, path: '/var/www/html', sub_path: '*.php', process: '*', exempt: [], level: 5, ops: ['w', 't'],
  notify: true, remark: `rule ${id}`, state: 'active', created_at: at, updated_at: at, ...extra,
});
const namingRule = (id: number, extra: Partial<NamingRule> = {}): NamingRule => ({
  id, enabled: true, dir: '/var/www/uploads', deny_dirs: [], deny_files: ['*.php'], deny_malformed: true, notify: true,
  remark: '', state: 'active', created_at: at, updated_at: at, ...extra,
});

function templates(call: ApiCall) {
  const lang = call.headers['Accept-Language'] === 'zh-CN' || call.headers['accept-language'] === 'zh-CN' ? 'zh-CN' : 'en-US';
  const id = call.query.get('id');
  const root = call.query.get('root');
  return ok({ list: cmsTemplateViews(lang), rules: id && root ? cmsTemplateRules(id as 'wordpress', root, lang) : [] });
}

async function openTamper(tab: 'index' | 'name', handlers: Record<string, Handler> = {}) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /tamper/status': ok(status()),
      'GET /tamper/rules': ok({ total: 2, list: [tamperRule(1), tamperRule(2, { ops: [], enabled: false, state: 'off', process: '/usr/bin/php*', exempt: ['/usr/bin/rsync'] })] }),
      'GET /tamper/names': ok({ total: 1, list: [namingRule(1)] }),
      'GET /tamper/templates': templates,
      'POST /tamper/rules/add': ok(done(), 'Saved 1 rule(s)'),
      'POST /tamper/rules/edit': ok(done(), 'Saved'),
      'POST /tamper/rules/enable': ok(done(), 'Saved'),
      'POST /tamper/rules/delete': ok(done(), 'Deleted'),
      'POST /tamper/names/add': ok(done(), 'Saved'),
      ...handlers,
    },
  });
  renderApp(`/tamper/${tab}`);
  await screen.findByTestId(tab === 'index' ? 'tamper-rules-page' : 'tamper-naming-page');
  return api;
}

const bodies = (api: { callsTo(k: string): ApiCall[] }, key: string) => api.callsTo(key).map((c) => c.body as Record<string, unknown>);
const fieldError = (field: string, prefix = 'tamper-rule') => screen.queryByTestId(`${prefix}-error-${field}`)?.textContent;

describe('tamper rules (index tab)', () => {
  it('lists rules with the spec labels of the operations, the state and the guard banner', async () => {
    await openTamper('index');
    const row1 = await screen.findByTestId('tamper-rule-row-1');
    for (const text of ['/var/www/html', '*.php', 'All processes', '5', 'Modify', 'Modify time', 'Protecting', 'Yes', 'rule 1']) expect(row1.textContent).toContain(text);
    const row2 = screen.getByTestId('tamper-rule-row-2');
    for (const text of ['/usr/bin/php*', 'Exempt processes: /usr/bin/rsync', 'Allow', 'Off']) expect(row2.textContent).toContain(text);
    expect(screen.getByTestId('tamper-rule-switch-2').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('tamper-guard-title').textContent).toBe('Enforced with fanotify (fallback)');
    expect(screen.getByTestId('tamper-guard-missing').textContent).toBe('Cannot be denied here: Delete (d), Rename (n), Modify time (t)');
    // The guard's cause reads as the home page's kernel status words it.
    expect(screen.getByTestId('tamper-guard-cause-guard_lsm_refused').textContent).toMatch(/^Why: the kernel refuses BPF LSM/);
  });

  it('reads in Chinese: operations, states and the banner', async () => {
    await switchToChinese();
    await openTamper('index');
    const row1 = await screen.findByTestId('tamper-rule-row-1');
    for (const text of ['修改', '修改时间', '保护中', '所有进程']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('tamper-guard-title').textContent).toBe('由 fanotify 执行（后备方式）');
    expect(screen.getByTestId('tamper-guard-missing').textContent).toBe('此处无法拦截：删除 (d)、重命名 (n)、修改时间 (t)');
    expect(screen.getByTestId('tamper-guard-cause-guard_lsm_refused').textContent).toMatch(/^原因：内核拒绝加载 BPF LSM/);
  });

  it('the add form has two steps: Next checks path, process and level before the operations are shown', async () => {
    const api = await openTamper('index');
    fireEvent.click(await screen.findByTestId('tamper-rule-add'));
    await screen.findByTestId('tamper-rule-form-step-1');
    type('tamper-rule-path', '/var/*/html');
    type('tamper-rule-process', '/usr/*/php');
    fireEvent.click(screen.getByTestId('tamper-rule-next'));
    await waitFor(() => expect(fieldError('path')).toBe('The protected path must be absolute, with * only at its right end'));
    expect(fieldError('process')).toBe('Invalid process path: * may stand only at the start or the end');
    expect(fieldError('level')).toBe('Enter the level');
    expect(screen.queryByTestId('tamper-rule-form-step-2')).toBeNull();
    type('tamper-rule-path', '/var/www/html/*');
    type('tamper-rule-process', '*');
    type('tamper-rule-level', '100');
    fireEvent.click(screen.getByTestId('tamper-rule-next'));
    await waitFor(() => expect(fieldError('level')).toBe('The level is 1 to 99; 1 applies first'));
    type('tamper-rule-level', '3');
    fireEvent.click(screen.getByTestId('tamper-rule-next'));
    await screen.findByTestId('tamper-rule-form-step-2');
    // Step 2: operations with the spec labels, the advanced rules, notification and remark.
    for (const op of ['r', 'x', 'd', 'c', 'n', 'w', 't']) expect(screen.getByTestId(`tamper-rule-op-${op}`)).toBeTruthy();
    expect(screen.getByTestId('tamper-rule-op-t').textContent).toBe('Modify time (t)');
    fireEvent.click(screen.getByTestId('tamper-rule-op-x'));
    fireEvent.click(screen.getByTestId('tamper-rule-op-n'));
    type('tamper-rule-remark', ' site code ');
    fireEvent.click(screen.getByTestId('tamper-rule-save'));
    await waitFor(() => expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(1));
    expect(bodies(api, 'POST /tamper/rules/add')[0]).toEqual({
      rules: [{ enabled: true, path: '/var/www/html/*', sub_path: '*', process: '*', exempt: [], level: 3, ops: ['x', 'd', 'c', 'w'], notify: true, remark: 'site code' }],
      confirmations: 0,
    });
    await waitFor(() => expect(screen.queryByTestId('tamper-rule-form-step-2')).toBeNull());
  });

  it('a server refusal of a step-1 field takes the form back to step 1 with the message', async () => {
    await openTamper('index', { 'POST /tamper/rules/add': refused('The level is 1 to 99; 1 applies first', 'rules.0.level') });
    fireEvent.click(await screen.findByTestId('tamper-rule-add'));
    type('tamper-rule-path', '/srv/site');
    type('tamper-rule-level', '4');
    fireEvent.click(screen.getByTestId('tamper-rule-next'));
    fireEvent.click(await screen.findByTestId('tamper-rule-save'));
    await screen.findByTestId('tamper-rule-form-step-1');
    await waitFor(() => expect(fieldError('level')).toBe('The level is 1 to 99; 1 applies first'));
  });

  it('a rule over / asks twice, in two distinct dialogs, and then sends confirmations 2; cancelling sends nothing', async () => {
    const api = await openTamper('index');
    const addRoot = async () => {
      fireEvent.click(await screen.findByTestId('tamper-rule-add'));
      type('tamper-rule-path', '/');
      type('tamper-rule-level', '9');
      fireEvent.click(screen.getByTestId('tamper-rule-next'));
      fireEvent.click(await screen.findByTestId('tamper-rule-save'));
    };
    // Closed confirm dialogs may linger in the DOM while they animate out: act on the newest.
    const clickLast = async (id: string) => fireEvent.click((await screen.findAllByTestId(id)).at(-1)!);
    await addRoot();
    expect(await screen.findAllByTestId('tamper-broad-ok-1')).toHaveLength(1);
    expect(screen.getAllByText('Protect all of / or /etc?').length).toBeGreaterThan(0);
    await clickLast('tamper-broad-ok-1');
    expect((await screen.findAllByText('Confirm once more')).length).toBeGreaterThan(0);
    await clickLast('tamper-broad-cancel-2');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('tamper-rule-save'));
    await waitFor(() => expect(screen.getAllByTestId('tamper-broad-ok-1')).toHaveLength(2));
    expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(0);
    await clickLast('tamper-broad-ok-1');
    await waitFor(() => expect(screen.getAllByTestId('tamper-broad-ok-2')).toHaveLength(2));
    expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(0);
    await clickLast('tamper-broad-ok-2');
    await waitFor(() => expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(1));
    expect(bodies(api, 'POST /tamper/rules/add')[0]).toMatchObject({ confirmations: 2, rules: [{ path: '/' }] });
  });

  it('bulk disable asks first, then posts enabled false for the selection', async () => {
    const api = await openTamper('index');
    await screen.findByTestId('tamper-rule-row-1');
    fireEvent.click(within(screen.getByTestId('tamper-rule-row-1')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('tamper-rule-disable'));
    expect(await screen.findByText('Disable the 1 selected rule(s)? Their files are no longer protected.')).toBeTruthy();
    expect(bodies(api, 'POST /tamper/rules/enable')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('tamper-rule-disable-confirm'));
    await waitFor(() => expect(bodies(api, 'POST /tamper/rules/enable')).toEqual([{ ids: [1], enabled: false }]));
  });

  it('the CMS template form previews the rules for the root and adds them all', async () => {
    const api = await openTamper('index');
    fireEvent.click(await screen.findByTestId('tamper-template-open'));
    await screen.findByTestId('tamper-template-form');
    type('tamper-template-root', 'var/www');
    expect(screen.getByTestId('tamper-template-error-root').textContent).toBe('The site root must be an absolute path without *');
    await choose('tamper-template-cms', 'tamper-template-wordpress');
    type('tamper-template-root', '/srv/blog');
    const preview = await screen.findByTestId('tamper-template-preview');
    await waitFor(() => expect(within(preview).getAllByRole('row')).toHaveLength(1 + 6));
    expect(preview.textContent).toContain('/srv/blog/wp-content/uploads');
    fireEvent.click(screen.getByTestId('tamper-template-add'));
    await waitFor(() => expect(bodies(api, 'POST /tamper/rules/add')).toHaveLength(1));
    const sent = bodies(api, 'POST /tamper/rules/add')[0] as { rules: Array<{ path: string }>; confirmations: number };
    expect(sent.confirmations).toBe(0);
    expect(sent.rules).toEqual(cmsTemplateRules('wordpress', '/srv/blog', 'en-US'));
  });
});

describe('naming rules (name tab)', () => {
  it('lists naming rules: empty lists read as no restriction', async () => {
    await openTamper('name');
    const row = await screen.findByTestId('tamper-naming-row-1');
    for (const text of ['/var/www/uploads', 'No restriction', '*.php', 'Denied']) expect(row.textContent).toContain(text);
  });

  it('the form refuses a directory with * and a bad name, naming it; a valid rule posts the schema body', async () => {
    const api = await openTamper('name');
    fireEvent.click(await screen.findByTestId('tamper-naming-add'));
    await screen.findByTestId('tamper-naming-form');
    type('tamper-naming-dir', '/srv/up*');
    const files = within(screen.getByTestId('tamper-naming-deny-files')).getByRole('combobox');
    fireEvent.change(files, { target: { value: 'a/b' } });
    fireEvent.keyDown(files, { key: 'Enter' });
    fireEvent.click(screen.getByTestId('tamper-naming-save'));
    await waitFor(() => expect(fieldError('dir', 'tamper-naming')).toBe('The protected directory cannot contain *'));
    expect(fieldError('deny_files', 'tamper-naming')).toBe('a/b: Invalid name: no /, at most 63 bytes, * only at the ends or once in the middle');
    expect(bodies(api, 'POST /tamper/names/add')).toHaveLength(0);

    type('tamper-naming-dir', '/srv/uploads');
    fireEvent.click(within(screen.getByTestId('tamper-naming-deny-files')).getByLabelText('close'));
    fireEvent.change(files, { target: { value: '*.php' } });
    fireEvent.keyDown(files, { key: 'Enter' });
    fireEvent.click(screen.getByTestId('tamper-naming-save'));
    await waitFor(() => expect(bodies(api, 'POST /tamper/names/add')).toHaveLength(1));
    expect(bodies(api, 'POST /tamper/names/add')[0]).toEqual({
      rule: { enabled: true, dir: '/srv/uploads', deny_dirs: [], deny_files: ['*.php'], deny_malformed: true, notify: true, remark: '' },
      confirmations: 0,
    });
  });
});
