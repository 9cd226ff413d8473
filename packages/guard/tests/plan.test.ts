import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardMaxSlots, guardPlanSchema, type TamperOp } from '@rampart/contracts';
import { nameMatch, planGuard, type GuardPlanInput } from '../src/index.ts';
import { accountSources, baseInput, namingRule, selfUnderRoot, statesOnFanotify, tamperRule, webTree } from './fixtures.ts';

/*
 * Goldens: each fixture's plan, warnings and rule states, as JSON in tests/golden. Run with
 * UPDATE_GOLDEN=1 to rewrite them after a deliberate change, then read the diff.
 */

const goldenDir = path.join(import.meta.dirname, 'golden');

function golden(name: string, input: GuardPlanInput): void {
  const result = planGuard(input);
  // Every plan the planner makes is one the helper accepts.
  expect(guardPlanSchema.safeParse(result.plan).success).toBe(true);
  const file = path.join(goldenDir, `${name}.json`);
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

describe('guard planner goldens', () => {
  it('web tree: deploy tool exempt, php-fpm allowed in uploads, site PHP files, naming rule', () => golden('web-tree', webTree));
  it('a rule over / keeps Rampart’s own directory allowed', () => golden('self-under-root', selfUnderRoot));
  it('rule states on a fanotify backend, a missing path, a hard link', () => golden('states-fanotify', statesOnFanotify));
  it('other modules’ rules (user protection’s account files) beside tamper rules', () => golden('account-sources', accountSources));
});

describe('guard planner: other modules’ rules', () => {
  const slotsOf = (input: GuardPlanInput, objectPath: string) => {
    const { plan } = planGuard(input);
    const object = plan.objects.find((o) => o.path === objectPath);
    return object ? plan.sets.find((s) => s.id === object.set)!.slots : [];
  };

  it('a locked account file: its module’s slot comes before a tamper allow rule over /etc', () => {
    const slots = slotsOf(accountSources, '/etc/passwd');
    expect(slots.map((s) => s.rule)).toEqual(['account:passwd', 'tamper:1']);
    // w d n t for every process, no exemption
    expect(slots[0]).toMatchObject({ covers: 32 | 4 | 16 | 64, deny: 32 | 4 | 16 | 64, proc: -1, exempt: -1 });
  });

  it('states per `<module>:<id>`: fanotify cannot deny d/n/t → partial; a missing file; a module switched off', () => {
    const states = planGuard(accountSources).ruleStates.sources!;
    expect(states['account:passwd']).toBe('partial');
    expect(states['account:gshadow']).toBe('path_missing');
    expect(states['other:x']).toBe('off');
    expect(planGuard({ ...accountSources, backendOps: ['r', 'x', 'd', 'c', 'n', 'w', 't'] }).ruleStates.sources!['account:passwd']).toBe('active');
  });

  it('a module switched off leaves no slot; with no sources the tamper-only plan is exactly as before', () => {
    const off = { ...accountSources, sources: accountSources.sources!.map((source) => ({ ...source, enabled: false })) };
    expect(planGuard(off).plan.objects.map((o) => o.path)).toEqual(['/etc', '/etc/app.conf']);
    expect(planGuard(off).ruleStates.sources!['account:passwd']).toBe('off');
    const { sources: _unused, ...tamperOnly } = accountSources;
    expect(planGuard(tamperOnly).ruleStates.sources).toBeUndefined();
    expect(planGuard({ ...tamperOnly, sources: [] }).plan).toEqual(planGuard(tamperOnly).plan);
  });
});

describe('guard planner semantics', () => {
  const slotsAt = (input: GuardPlanInput, objectPath: string) => {
    const { plan } = planGuard(input);
    const object = plan.objects.find((o) => o.path === objectPath);
    if (!object) throw new Error(`no object at ${objectPath}`);
    return plan.sets.find((s) => s.id === object.set)!.slots;
  };

  it('an inner object carries the outer rules too, ordered by level then id', () => {
    const slots = slotsAt(webTree, '/var/www/uploads');
    expect(slots.map((s) => s.rule)).toEqual(['name:1', 'name:1', 'name:1', 'name:1', 'name:1', 'tamper:2', 'tamper:1']);
    // the allow rule (no ops) covers everything and denies nothing
    expect(slots.find((s) => s.rule === 'tamper:2')).toMatchObject({ covers: 127, deny: 0 });
  });

  it('naming slots cover only create, and malformed names come first', () => {
    const slots = slotsAt(webTree, '/var/www/uploads').filter((s) => s.rule === 'name:1');
    expect(slots.every((s) => s.covers === 8 && s.deny === 8)).toBe(true);
    expect(slots[0]).toMatchObject({ malformed: true, target: 'any' });
    expect(slots.slice(1).map((s) => [s.target, s.name.kind])).toEqual([
      ['dir', 'exact'],
      ['file', 'suffix'],
      ['file', 'prefix'],
      ['file', 'prefix_suffix'],
    ]);
  });

  it('prefix paths expand to the entries found, never to deeper paths; disabled rules leave no slot', () => {
    const { plan } = planGuard(webTree);
    expect(plan.objects.map((o) => o.path)).toEqual(['/var/www', '/var/www/site1', '/var/www/site2', '/var/www/uploads']);
    expect(plan.sets.flatMap((s) => s.slots).some((s) => s.rule === 'tamper:4')).toBe(false);
  });

  it('Rampart’s own directory: the self slot first at and below it; a rule wholly inside it is not enforced', () => {
    expect(slotsAt(selfUnderRoot, '/opt/rampart')[0]).toMatchObject({ rule: 'self', covers: 127, deny: 0, proc: -1 });
    expect(slotsAt(selfUnderRoot, '/opt/rampart/var/state')[0]!.rule).toBe('self');
    expect(slotsAt(selfUnderRoot, '/').map((s) => s.rule)).toEqual(['tamper:1']);
    expect(planGuard(selfUnderRoot).ruleStates.tamper[2]).toBe('not_enforced');
  });

  it('name kinds from patterns', () => {
    expect(nameMatch('x')).toEqual({ kind: 'exact', a: 'x', b: '' });
    expect(nameMatch('x*')).toEqual({ kind: 'prefix', a: 'x', b: '' });
    expect(nameMatch('*x')).toEqual({ kind: 'suffix', a: 'x', b: '' });
    expect(nameMatch('*x*')).toEqual({ kind: 'contains', a: 'x', b: '' });
    expect(nameMatch('x*y')).toEqual({ kind: 'prefix_suffix', a: 'x', b: 'y' });
    expect(nameMatch('*')).toEqual({ kind: 'any', a: '', b: '' });
    expect(nameMatch(`${'a'.repeat(64)}*`)).toBeNull();
  });

  it('past the slot limit the lowest priority slots go, with a warning and a partial state', () => {
    const rules = Array.from({ length: guardMaxSlots + 2 }, (_, i) => tamperRule(i + 1, { level: 99 - i }));
    const result = planGuard(baseInput({ tamper: rules, resolved: { '/var/www': { dev: 1, ino: 2, dir: true } } }));
    expect(result.warnings).toEqual(['guard_warning.too_many_slots']);
    const slots = result.plan.sets[0]!.slots;
    expect(slots).toHaveLength(guardMaxSlots);
    // level 99 and 98 (rules 1 and 2) are the lowest priority
    expect(slots.map((s) => s.rule)).not.toContain('tamper:1');
    expect(slots.map((s) => s.rule)).not.toContain('tamper:2');
    expect(slots[0]!.rule).toBe(`tamper:${guardMaxSlots + 2}`);
    expect(result.ruleStates.tamper[1]).toBe('partial');
    expect(result.ruleStates.tamper[3]).toBe('active');
  });

  it('at most 64 process classes: the rule past them is skipped with a warning', () => {
    // one path per rule, so no set runs out of slots first
    const rules = Array.from({ length: 65 }, (_, i) => tamperRule(i + 1, { path: `/srv/d${i}`, process: `/usr/bin/p${i}` }));
    const resolved = Object.fromEntries(rules.map((rule, i) => [rule.path, { dev: 1, ino: 10 + i, dir: true }]));
    const result = planGuard(baseInput({ tamper: rules, resolved }));
    expect(result.warnings).toContain('guard_warning.too_many_processes');
    expect(result.ruleStates.tamper[65]).toBe('not_enforced');
    expect(result.ruleStates.tamper[64]).toBe('active');
    // rules sharing a pattern share a class
    const shared = planGuard(baseInput({ tamper: [tamperRule(1, { process: '/usr/bin/a' }), tamperRule(2, { process: '/usr/bin/a', level: 3 })], resolved: { '/var/www': { dev: 1, ino: 2, dir: true } } }));
    expect(new Set(shared.plan.sets[0]!.slots.map((s) => s.proc))).toEqual(new Set([0]));
  });

  it('a process pattern with no executable yet keeps its class; `*` is any process', () => {
    const result = planGuard(statesOnFanotify);
    const slot = result.plan.sets.flatMap((s) => s.slots).find((s) => s.rule === 'tamper:2')!;
    expect(slot.proc).toBe(0);
    expect(result.plan.exes).toEqual([]);
    expect(result.ruleStates.tamper[2]).toBe('active');
    expect(result.plan.sets.flatMap((s) => s.slots).find((s) => s.rule === 'tamper:3')!.proc).toBe(-1);
  });

  it('refuses what the tables cannot hold: a sub path whose directory starts with *, an exempt list with *', () => {
    const resolved = { '/var/www': { dev: 1, ino: 2, dir: true } };
    const unsupported = planGuard(baseInput({ tamper: [tamperRule(1, { sub_path: '*cache/x' })], resolved }));
    expect(unsupported.warnings).toEqual(['guard_warning.sub_path_unsupported']);
    expect(unsupported.plan.objects).toEqual([]);
    expect(unsupported.ruleStates.tamper[1]).toBe('not_enforced');
    const exemptAll = planGuard(baseInput({ tamper: [tamperRule(1, { exempt: ['*'] })], resolved }));
    expect(exemptAll.warnings).toEqual(['guard_warning.exempt_all']);
    expect(exemptAll.plan.objects).toEqual([]);
  });

  it('a sub path with a directory part anchors on the deeper directory, missing → path_missing', () => {
    const input = baseInput({ tamper: [tamperRule(1, { sub_path: 'uploads/*.php' })], resolved: { '/var/www': { dev: 1, ino: 2, dir: true }, '/var/www/uploads': null } });
    expect(planGuard(input).ruleStates.tamper[1]).toBe('path_missing');
    const found = planGuard({ ...input, resolved: { ...input.resolved, '/var/www/uploads': { dev: 1, ino: 3, dir: true } } });
    expect(found.plan.objects.map((o) => o.path)).toEqual(['/var/www/uploads']);
    expect(found.plan.sets[0]!.slots[0]!.name).toEqual({ kind: 'suffix', a: '.php', b: '' });
  });

  it('not enforcing: the tables stay, the plan says enforce false and every rule is off', () => {
    const result = planGuard({ ...webTree, enforce: false });
    expect(result.plan.enforce).toBe(false);
    expect(result.plan.objects.length).toBe(planGuard(webTree).plan.objects.length);
    expect(Object.values(result.ruleStates.tamper)).toEqual(['off', 'off', 'off', 'off']);
  });

  it('no backend: rules are not enforced; naming rules without any name still plan nothing harmful', () => {
    const result = planGuard({ ...webTree, backendOps: null, naming: [namingRule(2, { dir: '/var/www' })] });
    expect(result.ruleStates.tamper[1]).toBe('not_enforced');
    expect(result.ruleStates.names[2]).toBe('not_enforced');
  });

  it('fanotify (r x w): a rule denying only what it cannot deny is not enforced; some of it is partial', () => {
    const only = (ops: TamperOp[]) => tamperRule(1, { ops });
    const stateOn = (ops: TamperOp[]) => planGuard({ ...webTree, tamper: [only(ops)], naming: [], backendOps: ['r', 'x', 'w'] }).ruleStates.tamper[1];
    expect(stateOn(['c', 'd', 'n', 't'])).toBe('not_enforced');
    expect(stateOn(['d'])).toBe('not_enforced');
    expect(stateOn(['w', 'd'])).toBe('partial');
    expect(stateOn(['w'])).toBe('active');
    // an allow rule denies nothing and still makes its exception
    expect(stateOn([])).toBe('active');
    const naming = planGuard({ ...webTree, naming: [namingRule(2, { dir: '/var/www', deny_files: ['*.php'] })], backendOps: ['r', 'x', 'w'] });
    expect(naming.ruleStates.names[2]).toBe('not_enforced');
    expect(planGuard({ ...webTree, naming: [namingRule(2, { dir: '/var/www', deny_files: ['*.php'] })] }).ruleStates.names[2]).toBe('active');
  });
});

describe('guard planner: a rule anchored at every filesystem root (deny start by name)', () => {
  const root = (dev: number, ino: number) => ({ dev, ino, dir: true });
  const input = baseInput({
    tamper: [tamperRule(1, { path: '/var/www', ops: ['w'] })],
    sources: [
      {
        module: 'process',
        enabled: true,
        rules: [{ id: '3:start', path: '/', anchorPaths: ['/', '/tmp', '/var', '/media/gone'], sub_path: '*xmrig', process: '*', exempt: [], level: 1, ops: ['x'], notify: true, parentWalk: true }],
      },
    ],
    resolved: { '/': root(2049, 2), '/tmp': root(33, 1), '/var': root(2050, 2), '/media/gone': null, '/var/www': { dev: 2050, ino: 77, dir: true } },
    backendOps: ['r', 'x', 'd', 'c', 'n', 'w', 't'],
  });
  const setOf = (plan: ReturnType<typeof planGuard>['plan'], objectPath: string) => plan.sets.find((s) => s.id === plan.objects.find((o) => o.path === objectPath)!.set)!.slots;

  it('on BPF LSM: one object per root that exists, each holding the start slot once (a root below another root does not repeat it)', () => {
    const { plan, ruleStates, warnings } = planGuard(input);
    expect(guardPlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.objects.map((o) => o.path)).toEqual(['/', '/tmp', '/var', '/var/www']);
    for (const at of ['/', '/tmp', '/var']) {
      expect(setOf(plan, at).filter((slot) => slot.rule === 'process:3:start')).toEqual([
        { rule: 'process:3:start', covers: 2, deny: 2, proc: -1, exempt: -1, target: 'any', name: { kind: 'suffix', a: 'xmrig', b: '' }, malformed: false, notify: true },
      ]);
    }
    // the tamper rule's object below a root carries the start slot too: the walk stops at the nearest object
    expect(setOf(plan, '/var/www').map((slot) => slot.rule)).toEqual(['process:3:start', 'tamper:1']);
    expect(ruleStates.sources!['process:3:start']).toBe('active');
    expect(warnings).toEqual([]);
  });

  it('on fanotify (which marks every folder of a tree): left out, not_enforced, with a warning', () => {
    const { plan, ruleStates, warnings } = planGuard({ ...input, backendOps: ['r', 'x', 'w'], backendMarksTrees: true });
    expect(plan.objects.map((o) => o.path)).toEqual(['/var/www']);
    expect(setOf(plan, '/var/www').map((slot) => slot.rule)).toEqual(['tamper:1']);
    expect(ruleStates.sources!['process:3:start']).toBe('not_enforced');
    expect(ruleStates.tamper[1]).toBe('active');
    expect(warnings).toEqual(['guard_warning.needs_parent_walk']);
  });
});

