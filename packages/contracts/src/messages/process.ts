/** Server messages of process protection (`process_`). */
const zh = {
  process_action_invalid: '动作须为允许或拒绝',
  process_file_ops_required: '拒绝规则至少选择一种操作',
  process_too_many_files: '文件访问规则最多 64 条',
  process_rule_empty: '请至少选择一项限制：禁止启动、禁止 TCP、禁止 UDP 或文件访问规则',
  process_rule_not_found: '规则不存在',
  process_select_items: '请选择要操作的规则',
  process_rule_duplicate: '该进程已有规则，请编辑原规则',
  process_self_refused: '不能限制 Rampart 自身的程序',
} as const;

const en: Record<keyof typeof zh, string> = {
  process_action_invalid: 'The action is allow or deny',
  process_file_ops_required: 'A deny rule needs at least one operation',
  process_too_many_files: 'At most 64 file access rules',
  process_rule_empty: 'Choose at least one restriction: deny start, deny TCP, deny UDP or a file access rule',
  process_rule_not_found: 'The rule does not exist',
  process_select_items: 'Select the rules first',
  process_rule_duplicate: 'This process already has a rule; edit that rule',
  process_self_refused: "Rampart's own programs cannot be restricted",
};

export const processMessages = { zh, en };
