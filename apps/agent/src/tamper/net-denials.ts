import type { EventInput, GuardNetDenial, NoticeInput } from '@rampart/contracts';

/**
 * The event of a network denial of process protection (rule `process:<id>`). No notice yet: the
 * notice catalogue has no network kind (`notify` is accepted so one can be added in one place).
 */
export function netDenialEvent(denial: GuardNetDenial, notify: boolean): { event: EventInput; notice: NoticeInput | null } {
  void notify;
  return {
    event: {
      time: denial.time > 0 ? denial.time : undefined,
      kind: 'process.net_denied',
      module: 'process',
      level: 'warning',
      source: 'guard',
      params: {
        proto: denial.proto,
        peer: denial.peer.slice(0, 100),
        port: denial.port,
        process: (denial.exe || denial.comm).slice(0, 1000),
        pid: denial.pid,
        uid: denial.uid,
        rule: denial.rule,
        repeats: denial.repeats,
      },
    },
    notice: null,
  };
}
