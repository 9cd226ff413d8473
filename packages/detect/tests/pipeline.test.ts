import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPipeline, isLoopback, loadScenarios, logSources, type Decision, type PipelineEvent, type PipelineOptions } from '../src/index.ts';
import { canWriteJournals, JournalWriter, marker, untilFollowing } from './helpers/journal-writer.ts';
import { useCleanups } from './helpers/temp-dir.ts';
import { sleep, waitFor } from './helpers/wait.ts';

process.env.TZ = 'UTC';

const { cleanups, tempDir } = useCleanups();
const scenarios = loadScenarios();
const clock = Date.parse('2026-11-22T12:00:00Z');

function pipelineWith(options: Partial<PipelineOptions> = {}) {
  const decisions: Decision[] = [];
  const events: PipelineEvent[] = [];
  const pipeline = createPipeline({
    scenarios,
    isExempt: isLoopback,
    onDecision: (d) => decisions.push(d),
    onEvent: (e) => events.push(e),
    now: () => clock,
    ...options,
  });
  cleanups.push(() => pipeline.close());
  return { pipeline, decisions, events };
}

/** `n` failed passwords from `ip`, one per second from 01:00:00 (auth.log format). */
const failures = (ip: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => {
    const s = from + i;
    return `Nov 22 01:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')} web-1 sshd[${100 + i}]: Failed password for root from ${ip} port ${40000 + i} ssh2`;
  });

describe('pipeline', () => {
  it('fills one event as it passes each stage', () => {
    const { pipeline, events, decisions } = pipelineWith({ replay: true });
    const lines = failures('203.0.113.20', 11);
    for (const line of lines) pipeline.push(line, 'sshd-syslog');
    const last = events.at(-1)!;
    expect(last).toEqual({
      source: 'sshd-syslog',
      raw: lines[10],
      time: Date.parse('2026-11-22T01:00:10Z'),
      logTime: Date.parse('2026-11-22T01:00:10Z'),
      parsed: { kind: 'ssh_auth_failure', authMethod: 'password', user: 'root', invalidUser: false, ip: '203.0.113.20', port: 40010 },
      matched: ['ssh-bruteforce'],
      overflows: [{ scenario: 'ssh-bruteforce', group: '203.0.113.20', count: 11, firstTime: Date.parse('2026-11-22T01:00:00Z'), time: last.time }],
      decisions: [decisions[0]],
    });
    expect(decisions).toHaveLength(1);
    expect(events[9]!.decisions).toEqual([]);
  });

  it('runs on the clock when not replaying: the line’s own time is kept but not used', () => {
    const { pipeline, decisions, events } = pipelineWith();
    // Eleven failures written an hour apart, arriving now: live, they count as now.
    for (let h = 0; h < 11; h++) pipeline.push(`Nov 22 ${String(h).padStart(2, '0')}:00:00 web-1 sshd[1]: Failed password for root from 203.0.113.20 port 1 ssh2`, 'sshd-syslog');
    expect(events[0]).toMatchObject({ time: clock, logTime: Date.parse('2026-11-22T00:00:00Z') });
    expect(decisions.map((d) => d.time)).toEqual([clock]);

    const replayed = pipelineWith({ replay: true });
    for (let h = 0; h < 11; h++) replayed.pipeline.push(`Nov 22 ${String(h).padStart(2, '0')}:00:00 web-1 sshd[1]: Failed password for root from 203.0.113.20 port 1 ssh2`, 'sshd-syslog');
    expect(replayed.decisions).toEqual([]);
  });

  it('counts lines read, parsed and skipped per source, and never throws on bad input', () => {
    const { pipeline } = pipelineWith();
    const garbage = ['', ' ', '\u0000', '{', '{"MESSAGE":1}', 'x'.repeat(100_000), '[22/Nov/2026:01:02:03 +0000] "GET / HTTP/1.1" 200 1', 'Jan 99 99:99:99 h sshd[1]: x'];
    for (const source of logSources) for (const line of garbage) expect(() => pipeline.push(line, source)).not.toThrow();
    pipeline.push(failures('203.0.113.1', 1)[0]!, 'sshd-syslog');
    pipeline.push('Nov 22 01:00:00 web-1 CRON[5]: (root) CMD (run-parts /etc/cron.hourly)', 'sshd-syslog');
    pipeline.push('203.0.113.9 - - [22/Nov/2026:01:02:03 +0800] "GET / HTTP/1.1" 200 612 "-" "curl/8.5.0"', 'nginx');
    const stats = pipeline.stats();
    expect(stats.sources['sshd-syslog']).toEqual({ read: garbage.length + 2, parsed: 1, skipped: { malformed: 1, other_program: 1, unrecognised: garbage.length - 1 } });
    expect(stats.sources.nginx).toEqual({ read: garbage.length + 1, parsed: 1, skipped: { malformed: garbage.length, other_program: 0, unrecognised: 0 } });
    expect(stats.sources['sshd-journal']).toEqual({ read: garbage.length, parsed: 0, skipped: { malformed: garbage.length, other_program: 0, unrecognised: 0 } });
    expect(stats.scenarios['ssh-bruteforce']).toMatchObject({ matched: 1, overflows: 0 });
    expect(stats.scenarios['http-cc']).toMatchObject({ matched: 1 });
  });

  it('applies the administrator’s overrides, at start and at run time', () => {
    const { pipeline, decisions } = pipelineWith({ replay: true, overrides: { 'ssh-bruteforce': { threshold: 2, duration_minutes: 5 } } });
    for (const line of failures('203.0.113.20', 3)) pipeline.push(line, 'sshd-syslog');
    expect(decisions).toMatchObject([{ ip: '203.0.113.20', durationMinutes: 5, time: Date.parse('2026-11-22T01:00:02Z') }]);

    pipeline.updateOverrides({ 'ssh-bruteforce': { enabled: false } });
    for (const line of failures('203.0.113.21', 30, 10)) pipeline.push(line, 'sshd-syslog');
    expect(decisions).toHaveLength(1);

    expect(() => pipeline.updateOverrides({ 'ssh-bruteforce': { threshold: -1 } })).toThrow();
    pipeline.updateOverrides({});
    for (const line of failures('203.0.113.22', 11, 50)) pipeline.push(line, 'sshd-syslog');
    expect(decisions.map((d) => [d.ip, d.durationMinutes])).toEqual([
      ['203.0.113.20', 5],
      ['203.0.113.22', 60],
    ]);
  });

  it('tails a log file into decisions (attachFile)', async () => {
    const file = path.join(await tempDir(), 'auth.log');
    writeFileSync(file, failures('203.0.113.20', 20).join('\n') + '\n'); // history: not read again
    const { pipeline, decisions } = pipelineWith({ replay: true });
    const tail = pipeline.attachFile(file, 'sshd-syslog', { pollMs: 100 });
    await tail.ready;
    expect(pipeline.stats().sources['sshd-syslog'].read).toBe(0);
    appendFileSync(file, failures('203.0.113.30', 11, 100).join('\n') + '\n');
    await waitFor(() => decisions.length === 1);
    expect(decisions[0]).toMatchObject({ ip: '203.0.113.30', time: Date.parse('2026-11-22T01:01:50Z') });
    await pipeline.close();
    appendFileSync(file, failures('203.0.113.31', 11, 200).join('\n') + '\n');
    await sleep(300);
    expect(decisions).toHaveLength(1); // closed with the pipeline
  });

  it.skipIf(!canWriteJournals)('follows sshd in a real journal into decisions (attachJournal)', async () => {
    const dir = await tempDir();
    const writer = new JournalWriter(dir);
    cleanups.push(() => writer.close());
    writer.write({ message: 'warm-up', identifier: 'systemd' });
    await writer.created();
    const { pipeline, decisions, events } = pipelineWith();
    pipeline.attachJournal({ directory: dir });
    await untilFollowing(writer, () => events.length > 0);
    for (let i = 0; i < 11; i++) {
      writer.write({ message: `Failed password for invalid user u${i} from 2001:db8::66 port ${41000 + i} ssh2`, identifier: i % 2 ? 'sshd' : 'sshd-session', pid: 500 + i });
      writer.write({ message: `noise ${i}`, identifier: 'cron', pid: 9 });
    }
    await waitFor(() => decisions.length === 1, 5000, 'a decision');
    expect(decisions[0]).toMatchObject({ ip: '2001:db8::66', scenario: 'ssh-bruteforce', source: 'sshd-journal' });
    // The sshd matches kept the cron entries out.
    const attempts = events.filter((e) => !e.raw.includes(marker));
    expect(attempts.map((e) => e.parsed?.kind)).toEqual(Array(11).fill('ssh_auth_failure'));
    expect(JSON.parse(attempts[0]!.raw)).toMatchObject({ SYSLOG_IDENTIFIER: 'sshd-session' });
  });
});
