/** Server messages of the home page's quick configuration wizard and performance history (`wizard_`, `performance_`). */
const zh = {
  wizard_state_invalid: '向导状态须为“完成”或“跳过”',
  wizard_trust_added: '已把您当前的地址 {ip} 加入超级白名单（永久有效）',
  wizard_trust_already: '您当前的地址 {ip} 已在超级白名单中，无需添加',
  wizard_trust_loopback: '您是从本机（回环地址 {ip}）登录的，本机地址始终可以访问，无需添加',
  wizard_trust_no_address: '无法确定您当前的地址，未添加任何条目',
  performance_period_invalid: '时间范围须为 1h、24h 或 7d',
} as const;

const en: Record<keyof typeof zh, string> = {
  wizard_state_invalid: 'The wizard state must be "done" or "skipped"',
  wizard_trust_added: 'Your current address {ip} was added to the super whitelist (permanent)',
  wizard_trust_already: 'Your current address {ip} is already on the super whitelist; nothing added',
  wizard_trust_loopback: 'You signed in from this machine (loopback {ip}), which is always reachable; nothing added',
  wizard_trust_no_address: 'Your current address could not be determined; nothing added',
  performance_period_invalid: 'The period must be 1h, 24h or 7d',
};

export const homeWizardMessages = { zh, en };
