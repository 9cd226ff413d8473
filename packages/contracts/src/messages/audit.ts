/** Server messages of the audit's console calls (`audit_`); the engine's reasons are auditMessages in audit.ts. */
const zh = {
  audit_not_available: '此代理未配置审计根目录，无法体检',
  audit_started: '已开始体检',
  audit_no_run: '请先完成一次系统体检',
  audit_reinforce_started: '已开始加固，完成后请按提示重载服务或重启服务器',
  audit_reverted: '已回滚 {count} 项加固',
} as const;

const en: Record<keyof typeof zh, string> = {
  audit_not_available: 'This agent has no audit root configured; no audit can run',
  audit_started: 'Audit started',
  audit_no_run: 'Run a system audit first',
  audit_reinforce_started: 'Reinforcement started; reload the services or reboot the server as the items say when it finishes',
  audit_reverted: 'Reverted {count} reinforcement items',
};

export const auditApiMessages = { zh, en };
