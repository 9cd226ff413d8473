import { describe, expect, it } from 'vitest';
import { eventInputSchema, renderEvent } from '@rampart/contracts';
import { DenialRecorder, denialEvent } from '../src/index.ts';

/* Process protection's slots (`process:<id>:start`, `process:<id>:file<n>`): their own kinds, in the process module. */

const base = { event: 'denied' as const, notify: true, pid: 77, uid: 0, repeats: 1, time: 0, comm: 'sh', exe: '/usr/bin/dash' };

describe('process denials', () => {
  it('an exec denied by a start rule is a start denial; any op of a file rule is a file denial; both read in both languages', () => {
    const start = denialEvent({ ...base, op: 'x', rule: 'process:4:start', path: '/usr/bin/nc' });
    expect(eventInputSchema.safeParse(start).success).toBe(true);
    expect(start).toMatchObject({ kind: 'process.start_denied', module: 'process', params: { path: '/usr/bin/nc', rule: 'process:4:start' } });
    expect(renderEvent(start.kind, start.params!, 'en-US').content).toBe('Start of /usr/bin/nc denied (by /usr/bin/dash, PID 77, UID 0, rule process:4:start)');
    expect(renderEvent(start.kind, start.params!, 'zh-CN').content).toContain('启动已被拦截');
    // x under a file rule (running a script from a protected tree) is that file rule's denial
    const fileExec = denialEvent({ ...base, op: 'x', rule: 'process:4:file0', path: '/srv/a.sh' });
    expect(fileExec.kind).toBe('process.file_denied');
    const write = denialEvent({ ...base, op: 'w', rule: 'process:4:file1', path: '/etc/hosts' });
    expect(write).toMatchObject({ kind: 'process.file_denied', module: 'process' });
    expect(renderEvent(write.kind, write.params!, 'en-US').content).toBe('Modify of /etc/hosts by /usr/bin/dash (PID 77, UID 0) denied (rule process:4:file1)');
  });

  it('a process rule’s summary is the process module’s', () => {
    const events: { kind: string; module?: string }[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), limit: 1, timers: false, now: () => 0 });
    for (let i = 0; i < 3; i += 1) recorder.record({ ...base, op: 'x', rule: 'process:2:start', path: '/usr/bin/nc' });
    recorder.flush(true);
    expect(events.map((e) => [e.kind, e.module])).toEqual([['process.start_denied', 'process'], ['process.denials_suppressed', 'process']]);
  });
});
