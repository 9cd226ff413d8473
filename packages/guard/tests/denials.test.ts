import { describe, expect, it } from 'vitest';
import { eventInputSchema, noticeInputSchema, renderEvent, renderNotice, type EventInput, type GuardDenial, type GuardNetDenial, type NoticeInput } from '@rampart/contracts';
import { DenialRecorder, denialEvent, denialNotice, netDenialNotice } from '../src/index.ts';

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

  it('a rule with notification on raises a notice that reads in both languages, one per rule, operation and process', () => {
    const notices: NoticeInput[] = [];
    const recorder = new DenialRecorder({ sink: () => undefined, notice: (n) => notices.push(n), timers: false });
    recorder.record(denial());
    recorder.record(denial({ path: '/var/www/other.php' }));
    recorder.record(denial({ notify: false, rule: 'tamper:9' }));
    recorder.record(denial({ exe: '/usr/sbin/nginx' }));
    expect(notices).toHaveLength(3);
    expect(notices.every((n) => noticeInputSchema.safeParse(n).success)).toBe(true);
    // the store keeps one unread notice per dedupe key: the same rule, operation and process
    expect(notices[0]!.dedupe_key).toBe(notices[1]!.dedupe_key);
    expect(notices[2]!.dedupe_key).not.toBe(notices[0]!.dedupe_key);
    expect(notices.some((n) => n.params?.['rule'] === 'tamper:9')).toBe(false);
    const text = renderNotice('guard_denied', denialNotice(denial()).params!, 'en-US');
    expect(text.content).toBe('Tamper protection: Modify of /var/www/index.php by /usr/bin/dash (PID 77) was denied (rule tamper:1).');
    expect(renderNotice('guard_denied', denialNotice(denial({ rule: 'account:passwd' })).params!, 'zh-CN').content).toContain('用户防护');
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

describe('account denials', () => {
  const base = { event: 'denied' as const, notify: true, pid: 77, uid: 0, repeats: 1, time: 0 };
  it('a write of an account file is a file denial; replacing it or a user tool is a refused user creation (module account)', () => {
    const write = denialEvent({ ...base, op: 'w', rule: 'account:passwd', comm: 'vi', exe: '/usr/bin/vim.basic', path: '/etc/passwd' });
    expect(write).toMatchObject({ kind: 'account.file_denied', module: 'account', params: { rule: 'account:passwd', op: 'w' } });
    const renameOver = denialEvent({ ...base, op: 'd', rule: 'account:passwd', comm: 'python3', exe: '/usr/bin/python3.11', path: '/etc/passwd' });
    expect(renameOver).toMatchObject({ kind: 'account.user_create_denied', module: 'account' });
    const busybox = denialEvent({ ...base, op: 'w', rule: 'account:passwd', comm: 'adduser', exe: '/bin/busybox', path: '/etc/passwd' });
    expect(busybox.kind).toBe('account.user_create_denied');
    expect(denialEvent({ ...base, op: 'w', rule: 'tamper:3', comm: 'adduser', exe: '/bin/busybox', path: '/etc/passwd' }).kind).toBe('tamper.denied');
  });
  it('an account rule’s summary is the account module’s', () => {
    const events: { kind: string; module?: string }[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), limit: 1, timers: false, now: () => 0 });
    for (let i = 0; i < 3; i += 1) recorder.record({ ...base, op: 'w', rule: 'account:shadow', comm: 'x', exe: '/x', path: '/etc/shadow' });
    recorder.flush(true);
    expect(events.map((e) => [e.kind, e.module])).toEqual([['account.file_denied', 'account'], ['account.denials_suppressed', 'account']]);
  });
});

describe('network denials (process protection)', () => {
  const net = (fields: Partial<GuardNetDenial> = {}): GuardNetDenial => ({
    event: 'net_denied', proto: 'udp', family: 4, peer: '192.0.2.7', port: 53, rule: 'process:4', pid: 90, uid: 33, comm: 'nc', exe: '/usr/bin/nc.openbsd', repeats: 1, time: 0, ...fields,
  });

  it('a denial is an event, and a notice only when the rule notifies: one per rule, protocol and process', () => {
    const events: EventInput[] = [];
    const notices: NoticeInput[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), notice: (n) => notices.push(n), timers: false });
    recorder.recordNet(net(), true);
    recorder.recordNet(net({ peer: '198.51.100.1', port: 123 }), true);
    recorder.recordNet(net({ proto: 'tcp', port: 443 }), true);
    recorder.recordNet(net({ rule: 'process:5' }), false);
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({ kind: 'process.net_denied', module: 'process', params: { proto: 'udp', peer: '192.0.2.7', port: 53, process: '/usr/bin/nc.openbsd', rule: 'process:4' } });
    expect(events.every((e) => eventInputSchema.safeParse(e).success)).toBe(true);
    expect(notices).toHaveLength(3);
    expect(notices.every((n) => noticeInputSchema.safeParse(n).success)).toBe(true);
    // another peer of the same rule and process is the same notice while unread; another protocol is not
    expect(notices[1]!.dedupe_key).toBe(notices[0]!.dedupe_key);
    expect(notices[2]!.dedupe_key).not.toBe(notices[0]!.dedupe_key);
    expect(renderNotice('process_net_denied', netDenialNotice(net()).params!, 'en-US').content).toBe('udp to 192.0.2.7 port 53 by /usr/bin/nc.openbsd (PID 90) was denied (rule process:4).');
    expect(renderNotice('process_net_denied', netDenialNotice(net()).params!, 'zh-CN').title).toBe('进程防护拦截了网络访问');
  });

  it('a process looping on connect() records at most `limit` events per window, then one summary', () => {
    let now = 0;
    const events: EventInput[] = [];
    const recorder = new DenialRecorder({ sink: (e) => events.push(e), now: () => now, limit: 5, windowMs: 10_000, timers: false });
    for (let i = 0; i < 50; i += 1) recorder.recordNet(net({ peer: `192.0.2.${i}`, repeats: 2 }), false);
    expect(events).toHaveLength(5);
    now = 10_000;
    recorder.flush();
    expect(events.at(-1)).toMatchObject({ kind: 'process.denials_suppressed', params: { rule: 'process:4', count: 90 } });
  });
});
