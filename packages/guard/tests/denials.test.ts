import { describe, expect, it } from 'vitest';
import { eventInputSchema, renderEvent, type EventInput, type GuardDenial } from '@rampart/contracts';
import { DenialRecorder, denialEvent } from '../src/index.ts';

const denial = (fields: Partial<GuardDenial> = {}): GuardDenial => ({
  event: 'denied', op: 'w', rule: 'tamper:1', notify: true, pid: 77, uid: 33, comm: 'sh', exe: '/usr/bin/dash', path: '/var/www/index.php', repeats: 1, time: 0, ...fields,
});

describe('denial events', () => {
  it('a denial becomes a valid tamper event that reads in both languages', () => {
    const input = denialEvent(denial());
    expect(eventInputSchema.safeParse(input).success).toBe(true);
    expect(input).toMatchObject({ kind: 'tamper.denied', module: 'tamper', level: 'warning', params: { op: 'w', path: '/var/www/index.php', process: '/usr/bin/dash', pid: 77, uid: 33, rule: 'tamper:1' } });
    expect(renderEvent(input.kind, input.params!, 'en-US').content).toBe('Modify of /var/www/index.php by /usr/bin/dash (PID 77, UID 33) denied (rule tamper:1)');
    expect(renderEvent(input.kind, input.params!, 'zh-CN').content).toContain('修改');
    const named = denialEvent(denial({ rule: 'name:3', op: 'c', exe: '', comm: 'php' }));
    expect(named).toMatchObject({ kind: 'tamper.name_denied', params: { process: 'php', rule: 'name:3' } });
  });

  it('at most `limit` events per rule per window, then one summary with the count', () => {
    let now = 1000;
    const events: EventInput[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), now: () => now, limit: 20, windowMs: 10_000, timers: false });
    for (let i = 0; i < 100; i += 1) recorder.record(denial());
    // another rule has its own budget
    recorder.record(denial({ rule: 'tamper:2' }));
    expect(events.filter((e) => e.kind === 'tamper.denied')).toHaveLength(21);
    recorder.flush();
    expect(events).toHaveLength(21);
    now += 10_000;
    recorder.flush();
    const summary = events.at(-1)!;
    expect(summary).toMatchObject({ kind: 'tamper.denials_suppressed', params: { rule: 'tamper:1', count: 80, seconds: 10 } });
    expect(eventInputSchema.safeParse(summary).success).toBe(true);
    // a new window records again
    recorder.record(denial());
    expect(events.at(-1)!.kind).toBe('tamper.denied');
  });

  it('the summary is written by a timer at the window end', async () => {
    const events: EventInput[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), limit: 1, windowMs: 50 });
    recorder.record(denial());
    recorder.record(denial({ repeats: 4 }));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(events.map((e) => e.kind)).toEqual(['tamper.denied', 'tamper.denials_suppressed']);
    expect(events[1]!.params).toMatchObject({ count: 4 });
  });
});
