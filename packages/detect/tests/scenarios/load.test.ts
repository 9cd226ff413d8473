import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOverrides, builtInScenarioDir, loadScenarioFile, loadScenarios, ScenarioError } from '../../src/index.ts';
import { useCleanups } from '../helpers/temp-dir.ts';

const { tempDir } = useCleanups();

const valid = `name: probe
description:
  zh-CN: 测试
  en-US: test
filter:
  kind: http_request
  status: [404, 410]
group_by: ip
type: count
threshold: 5
window: 60
decision:
  action: block
  duration_minutes: 10
  reason: probe
fixture: fixtures/probe
`;

/** Writes `text` as `<dir>/<name>.yaml` next to a fixture folder; returns the file. */
async function scenarioFile(text: string, name = 'probe', dir?: string): Promise<string> {
  const folder = dir ?? (await tempDir());
  mkdirSync(path.join(folder, 'fixtures', 'probe'), { recursive: true });
  writeFileSync(path.join(folder, 'fixtures', 'probe', 'expected.json'), '{}');
  const file = path.join(folder, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

function loadError(file: string): ScenarioError {
  try {
    loadScenarioFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error('expected the file to be refused');
}

describe('scenario files', () => {
  it('ships ssh-bruteforce, http-404-scan and http-cc with their defaults', () => {
    const byName = Object.fromEntries(loadScenarios().map((s) => [s.name, s]));
    expect(byName['ssh-bruteforce']).toMatchObject({
      filter: { kind: 'ssh_auth_failure' },
      group_by: 'ip',
      type: 'count',
      threshold: 10,
      window: 120,
      decision: { action: 'block', duration_minutes: 60, reason: 'ssh_bruteforce' },
      fixture: path.join(builtInScenarioDir, 'fixtures', 'ssh-bruteforce'),
    });
    expect(byName['http-404-scan']).toMatchObject({ filter: { kind: 'http_request', status: 404 }, threshold: 20, window: 60, decision: { duration_minutes: 60, reason: 'http_404_scan' } });
    expect(byName['http-cc']).toMatchObject({ filter: { kind: 'http_request' }, threshold: 300, window: 60, decision: { duration_minutes: 60, reason: 'http_cc' } });
    for (const s of Object.values(byName)) expect(s.description['zh-CN'] && s.description['en-US']).toBeTruthy();
  });

  it('loads a valid file, lists and all', async () => {
    const s = loadScenarioFile(await scenarioFile(valid));
    expect(s).toMatchObject({ name: 'probe', filter: { kind: 'http_request', status: [404, 410] }, threshold: 5 });
    expect(path.isAbsolute(s.fixture)).toBe(true);
  });

  const broken: [string, string, string, RegExp][] = [
    ['a misspelt filter field', valid.replace('  status:', '  stauts:'), 'filter.stauts', /unknown field/],
    ['a status given as text', valid.replace('[404, 410]', '"404"'), 'filter.status', /./],
    ['an unknown event kind', valid.replace('kind: http_request', 'kind: http'), 'filter.kind', /./],
    ['a filter without a kind', valid.replace('  kind: http_request\n', ''), 'filter.kind', /./],
    ['no reason', valid.replace('  reason: probe\n', ''), 'decision.reason', /./],
    ['a reason that is not a key', valid.replace('reason: probe', 'reason: Probe Found'), 'decision.reason', /message key/],
    ['a zero threshold', valid.replace('threshold: 5', 'threshold: 0'), 'threshold', /./],
    ['a fractional window', valid.replace('window: 60', 'window: 1.5'), 'window', /./],
    ['an unknown action', valid.replace('action: block', 'action: allow'), 'decision.action', /./],
    ['group_by an unknown field', valid.replace('group_by: ip', 'group_by: address'), 'group_by', /./],
    ['distinct without its field', valid.replace('type: count', 'type: distinct'), 'distinct', /required when type is distinct/],
    ['an unknown top-level field', `${valid}capacity: 3\n`, 'capacity', /unknown field/],
    ['only one language', valid.replace('  en-US: test\n', ''), 'description.en-US', /./],
    ['a name that is not the file name', valid.replace('name: probe', 'name: other'), 'name', /must match the file name \(probe\)/],
    ['a missing fixture', valid.replace('fixtures/probe', 'fixtures/none'), 'fixture', /no expected.json/],
  ];
  for (const [what, text, field, message] of broken) {
    it(`refuses ${what}, naming the file and the field`, async () => {
      const file = await scenarioFile(text);
      const error = loadError(file);
      expect(error.file).toBe(file);
      expect(error.field).toBe(field);
      expect(error.message).toContain(`scenario ${file}: ${field}: `);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses YAML that does not parse, naming the file', async () => {
    const file = await scenarioFile('name: [unclosed\n');
    expect(loadError(file).message).toContain(`scenario ${file}: `);
  });

  it('fails the whole load at the first bad file', async () => {
    const dir = await tempDir();
    await scenarioFile(valid, 'probe', dir);
    await scenarioFile(valid.replace('window: 60', 'window: -1'), 'zz-bad', dir);
    expect(() => loadScenarios(dir)).toThrow(/zz-bad\.yaml: /);
  });
});

describe('applyOverrides', () => {
  const shipped = loadScenarios();

  it('replaces threshold, window and duration, and leaves out disabled scenarios', () => {
    const active = applyOverrides(shipped, {
      'ssh-bruteforce': { threshold: 5, window: 3600, duration_minutes: 1440 },
      'http-cc': { enabled: false },
      'port-scan': { threshold: 3 }, // another engine's rule: ignored
    });
    expect(active.map((s) => s.name)).toEqual(['http-404-scan', 'ssh-bruteforce']);
    expect(active[1]).toMatchObject({ threshold: 5, window: 3600, decision: { duration_minutes: 1440, reason: 'ssh_bruteforce' } });
    expect(shipped.find((s) => s.name === 'ssh-bruteforce')!.threshold).toBe(10); // the loaded scenarios stay as they were
  });

  it('refuses overrides of the wrong shape', () => {
    expect(() => applyOverrides(shipped, { 'ssh-bruteforce': { threshold: 0 } })).toThrow();
    expect(() => applyOverrides(shipped, { 'ssh-bruteforce': { capacity: 3 } as never })).toThrow();
  });
});
