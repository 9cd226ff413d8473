import type { Texts } from '../types.ts';

/**
 * Texts under `empty.` (English): what an empty list shows — what the list holds, then the next
 * step (components/EmptyHint.tsx). The Chinese texts below hold the same keys.
 */
export const emptyEn = {
  add_with: 'Add one with “{{button}}”.',
  read_only: 'This account can only view this list.',
  search: 'Nothing matches “{{keyword}}”.',
  search_next: 'Check the spelling, or clear the search box to see the whole list.',
  fw: {
    rule_in: 'No inbound rule yet: traffic that no rule matches is allowed.',
    rule_out: 'No outbound rule yet: traffic that no rule matches is allowed.',
    white: 'The white list is empty.',
    black: 'The black list is empty.',
    intercept: 'No address is blocked.',
    intercept_next: 'Addresses blocked by attack protection or by hand appear here.',
  },
  web: {
    server: 'No site is protected yet.',
    server_next: 'Add one with “{{add}}”, or find the sites of this server with “{{discover}}”.',
    intercept_list: 'No address is blocked on the protected sites.',
    intercept_list_next: 'Addresses blocked by website protection or by hand appear here.',
    author_list: 'No address is authorized.',
    author_list_next: 'Addresses that enter a site\'s authorization password, or are added by hand, appear here.',
    header_rules: 'No header limit: request headers are not checked for length.',
    time_limits: 'No time-limited URL: every URL is open at all times.',
  },
  log: {
    event_filtered: 'No event matches these filters.',
    event_period: 'No event in this period.',
    event_none: 'No event yet.',
    event_none_next: 'Administrative actions and protection events are recorded here as they happen.',
    photo_filtered: 'No request snapshot matches these filters.',
    photo_period: 'No request snapshot in this period.',
    photo_none: 'No request snapshot yet.',
    photo_none_next: 'Website protection keeps a snapshot here of each request it acts on.',
    filtered_next: 'Choose a longer period, or clear the filters.',
    period_next: 'Choose a longer period to see older records.',
    notice: 'No notice.',
    notice_next: 'Rampart posts a notice here when something needs your attention, e.g. a licence about to expire.',
  },
  proc: 'No process rule yet.',
  tamper: {
    rule: 'No directory is protected yet.',
    naming: 'No naming rule yet.',
  },
  sys: {
    trust: 'The super white list is empty.',
    area: 'No common area yet.',
    backup: 'No backup rule yet: log archives stay on this server only.',
    config: 'No server backup of the configuration yet.',
    shortcut: 'No shortcut yet.',
    accounts: 'No panel account could be read.',
  },
  account: {
    files: 'No account file could be read.',
    privileged: 'No privileged account found.',
  },
  audit: {
    history: 'No audit has run yet.',
    history_next: 'Start one with “{{button}}”; each run is kept here.',
  },
};

export const emptyZh: Texts<typeof emptyEn> = {
  add_with: '点击“{{button}}”添加。',
  read_only: '当前账号只能查看此列表。',
  search: '没有与“{{keyword}}”匹配的记录。',
  search_next: '请检查输入，或清空搜索框查看全部。',
  fw: {
    rule_in: '暂无入站规则：未匹配任何规则的流量默认放行。',
    rule_out: '暂无出站规则：未匹配任何规则的流量默认放行。',
    white: '白名单为空。',
    black: '黑名单为空。',
    intercept: '当前没有被拦截的地址。',
    intercept_next: '被攻击防护自动拦截或手动拦截的地址会显示在这里。',
  },
  web: {
    server: '还没有受保护的站点。',
    server_next: '点击“{{add}}”添加，或用“{{discover}}”找出本机的站点。',
    intercept_list: '当前没有被网站防护拦截的地址。',
    intercept_list_next: '被网站防护自动拦截或手动拦截的地址会显示在这里。',
    author_list: '当前没有已授权的地址。',
    author_list_next: '输入站点授权密码或手动授权的地址会显示在这里。',
    header_rules: '暂无请求头限制：不检查请求头的长度。',
    time_limits: '暂无限时访问的 URL：所有 URL 全天开放。',
  },
  log: {
    event_filtered: '没有符合这些筛选条件的事件。',
    event_period: '这段时间内没有事件。',
    event_none: '暂无事件。',
    event_none_next: '管理操作和防护事件发生时会记录在这里。',
    photo_filtered: '没有符合这些筛选条件的请求快照。',
    photo_period: '这段时间内没有请求快照。',
    photo_none: '暂无请求快照。',
    photo_none_next: '网站防护处理过的请求会在这里保存快照。',
    filtered_next: '请选择更长的时间范围，或清除筛选条件。',
    period_next: '选择更长的时间范围可查看更早的记录。',
    notice: '暂无通知。',
    notice_next: '有需要您处理的事情时（例如授权即将到期），Rampart 会在这里发通知。',
  },
  proc: '暂无进程规则。',
  tamper: {
    rule: '还没有受保护的目录。',
    naming: '暂无命名规则。',
  },
  sys: {
    trust: '超级白名单为空。',
    area: '暂无常用区域。',
    backup: '暂无备份规则：日志归档只保存在本机。',
    config: '暂无配置的服务器备份。',
    shortcut: '暂无快捷操作。',
    accounts: '未能读取到面板账号。',
  },
  account: {
    files: '未能读取到账号文件。',
    privileged: '未发现特权账号。',
  },
  audit: {
    history: '还没有进行过体检。',
    history_next: '点击“{{button}}”开始体检，每次结果都会保存在这里。',
  },
};
