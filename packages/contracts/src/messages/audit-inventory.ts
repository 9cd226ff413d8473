/** Server messages of the audit's user and process tabs (`audit_`). */
const zh = {
  audit_process_pid_invalid: '进程号须为正整数',
  audit_process_gone: '该进程已结束',
} as const;

const en: Record<keyof typeof zh, string> = {
  audit_process_pid_invalid: 'The process id must be a positive integer',
  audit_process_gone: 'That process has ended',
};

export const auditInventoryMessages = { zh, en };
