import { describe, expect, it } from 'vitest';
import { computeSystemStatus, defaultModuleFlags, moduleKeys, modulesInBuild, systemStatusSchema, type EngineHealth, type ModuleFlags, type ModuleKey, type SystemStatusInput } from '../src/index.ts';

const flags = (on: readonly ModuleKey[]): ModuleFlags => ({ ...defaultModuleFlags(), ...Object.fromEntries(on.map((m) => [m, 1])) });
const ok: EngineHealth = { state: 'ok' };
const allOk = (on: readonly ModuleKey[]) => Object.fromEntries(on.map((m) => [m, ok]));
const status = (input: Partial<SystemStatusInput> & { modules: ModuleFlags }) =>
  systemStatusSchema.parse(computeSystemStatus({ protection: 'on', agent: 'connected', health: {}, ...input }));

// In the order the console lists modules (moduleKeys), this build's only; and the modules left out of it.
const built = moduleKeys.filter((m) => modulesInBuild.includes(m));
const outside = moduleKeys.filter((m) => !modulesInBuild.includes(m));

describe('computeSystemStatus', () => {
  it('lists this build’s modules in the module list’s order', () => {
    expect(status({ modules: flags([]) }).off).toEqual(built);
    expect(built).toContain('firewall');
    // Cloud protection (threat-intel feeds) was the last module to get its engine: none is left out.
    expect(outside).toEqual([]);
  });

  it('every module off: unprotected, and lists every module of this build as off (none outside it)', () => {
    const s = status({ modules: flags([]) });
    expect(s).toEqual({ level: 'unprotected', why: ['no_module_on'], healthy: [], off: [...built], failing: [], partly: [], unknown: [] });
  });

  it('a module outside this build stored on counts as nothing', () => {
    expect(status({ modules: flags(outside) })).toMatchObject({ level: 'unprotected', why: ['no_module_on'], off: [...built] });
  });

  it('protection on, modules on and every one healthy: protected, the others listed as off', () => {
    const s = status({ modules: flags(['firewall', 'tamper']), health: allOk(['firewall', 'tamper']) });
    expect(s).toEqual({ level: 'protected', why: [], healthy: ['firewall', 'tamper'], off: built.filter((m) => m !== 'firewall' && m !== 'tamper'), failing: [], partly: [], unknown: [] });
    expect(status({ modules: flags(built), health: allOk(built) })).toMatchObject({ level: 'protected', off: [], healthy: [...built] });
  });

  it('protection permanently off: unprotected whatever the engines say', () => {
    expect(status({ modules: flags(built), health: allOk(built), protection: 'off' })).toMatchObject({ level: 'unprotected', why: ['protection_off'], healthy: [...built] });
  });

  it('protection temporarily off: unprotected, paused', () => {
    expect(status({ modules: flags(['firewall']), health: allOk(['firewall']), protection: 'temp_off' })).toMatchObject({ level: 'unprotected', why: ['protection_paused'] });
    expect(status({ modules: flags([]), protection: 'temp_off' })).toMatchObject({ level: 'unprotected', why: ['protection_paused', 'no_module_on'] });
  });

  it('one module failing beside a healthy one: degraded, says which and why', () => {
    const s = status({ modules: flags(['firewall', 'tamper']), health: { firewall: { state: 'failing', reason: 'firewall_unavailable' }, tamper: ok } });
    expect(s).toMatchObject({ level: 'degraded', why: ['some_failing'], healthy: ['tamper'], failing: [{ module: 'firewall', reason: 'firewall_unavailable' }], partly: [] });
  });

  it('every module that is on failing: unprotected, nothing is enforced', () => {
    const s = status({ modules: flags(['firewall', 'remote']), health: { firewall: { state: 'failing', reason: 'firewall_error' }, remote: { state: 'failing', reason: 'remote_not_enforced' } } });
    expect(s).toMatchObject({ level: 'unprotected', why: ['all_failing'], healthy: [], failing: [{ module: 'firewall', reason: 'firewall_error' }, { module: 'remote', reason: 'remote_not_enforced' }] });
  });

  it('partly enforced (the guard on the fanotify fallback): degraded, even alone', () => {
    const s = status({ modules: flags(['tamper']), health: { tamper: { state: 'partly', reason: 'guard_fanotify' } } });
    expect(s).toMatchObject({ level: 'degraded', why: ['some_partly'], partly: [{ module: 'tamper', reason: 'guard_fanotify' }], failing: [] });
  });

  it('failing and partly together: degraded with both', () => {
    const s = status({
      modules: flags(['firewall', 'tamper', 'process']),
      health: { firewall: { state: 'failing', reason: 'firewall_unavailable' }, tamper: { state: 'partly', reason: 'guard_fanotify' }, process: ok },
    });
    expect(s).toMatchObject({ level: 'degraded', why: ['some_failing', 'some_partly'] });
  });

  it('a module on whose health nobody gave: unknown, degraded', () => {
    const s = status({ modules: flags(['firewall', 'website']), health: { firewall: ok } });
    expect(s).toMatchObject({ level: 'degraded', why: ['some_unknown'], unknown: [{ module: 'website', reason: 'status_unavailable' }] });
    const given = status({ modules: flags(['website']), health: { website: { state: 'unknown', reason: 'gateway_unreachable' } } });
    expect(given).toMatchObject({ level: 'degraded', why: ['some_unknown'], unknown: [{ module: 'website', reason: 'gateway_unreachable' }] });
  });

  it('the agent away: every module on is of unknown health and it says so; never protected', () => {
    const s = status({ modules: flags(['firewall', 'tamper']), health: allOk(['firewall', 'tamper']), agent: 'unreachable' });
    expect(s).toMatchObject({
      level: 'degraded', why: ['agent_unreachable'], healthy: [],
      unknown: [{ module: 'firewall', reason: 'agent_unreachable' }, { module: 'tamper', reason: 'agent_unreachable' }],
    });
    expect(status({ modules: flags([]), agent: 'unreachable' })).toMatchObject({ level: 'unprotected', why: ['agent_unreachable', 'no_module_on'] });
  });
});
