/*
 * The help of each section, for the people who run the server (not the developer README): what the
 * module does, what each setting means, and how to get back in or undo when something went wrong.
 * Loaded only when a help drawer opens, so no page carries it.
 */

export interface HelpText {
  /** What the module does, in a few sentences. */
  intro: string;
  /** Setting or tab, and what it means. */
  items: readonly (readonly [string, string])[];
  /** How to recover: undo a change, get back in. */
  recover: readonly string[];
}

type HelpBook = Record<string, HelpText>;

const zh: HelpBook = {
  dashboard: {
    intro: '首页汇总服务器与各模块的状态：系统状态只有在已开启的模块都运行正常时才显示“防护中”，否则说明哪个模块未开启或异常。',
    items: [
      ['系统状态 / 内核状态', '内核状态指文件与进程防护所用的内核机制：BPF LSM（全部操作可拦截）或 fanotify 后备（只能拦截读、写、执行）。'],
      ['一键开启基础模块', '开启防火墙、远程、用户、防篡改、进程防护等已构建的模块；无法开启的会逐个说明原因。'],
      ['信任终端', '在管理员电脑上保持其地址被信任，地址变化时也不会被本服务器自己的防护拦截。'],
      ['重启服务器 / 重启软件', '都会先确认。重启软件时控制台几秒不可用，页面会在恢复后自动刷新。'],
    ],
    recover: ['控制台打不开时，在服务器上运行 `npx rampart portal reset`（解除安全入口、绑定域名、授权 IP 限制）。', '忘记密码：`npx rampart admin reset-password`。'],
  },
  firewall: {
    intro: '主机防火墙在内核的 nftables 中执行（表 inet rampart），按超级白名单 > 白名单 > 黑名单 > 拦截名单 > 规则的顺序判断每个入站数据包。',
    items: [
      ['入站 / 出站规则', '协议、端口、来源 IP 或地区、动作与优先级（1 最先）；同优先级时拒绝先于允许。没有匹配的规则时放行。'],
      ['攻击防护', '端口扫描（内核中计数，超过阈值即封锁来源）、SSH 暴力破解（读取 sshd 日志）；封锁时长到期后自动解除。'],
      ['黑白名单', '白名单放行、黑名单拒绝，可设有效期；支持单个地址、CIDR 与范围。'],
      ['拦截名单', '由检测或手动加入的临时封锁地址；删除即解除。'],
    ],
    recover: [
      '会切断你自己访问面板的改动会先“试用”60 秒：未确认则自动回滚。',
      '把自己挡在外面：在服务器上运行 `npx rampart firewall off`，移除防火墙表并关闭模块。',
      '停止 Rampart 后防火墙规则仍留在内核中继续生效（设计如此）。',
    ],
  },
  website: {
    intro: '网站防护是位于 Web 服务器前面的网关：检查每个请求（注入、XSS、扫描、CC 等），放行正常请求、拦截攻击。模块关闭时流量照常通过但不检查。',
    items: [
      ['防护对象', '从本机 nginx / Apache 发现站点，网关接管其监听端口，把请求转给原服务器。'],
      ['基本设置', '宽松模式只拦截明确的攻击并记录可疑请求；严格模式两者都拦截。'],
      ['请求 / 访问 / 注入 / 攻击防护', '请求方法、大小、头部规则、上传类型、防盗链、关键字、CC 频率和各类攻击检测的开关与阈值。'],
      ['响应设置', 'Cookie 属性、X-Frame-Options 与响应内容过滤。'],
      ['黑白名单 / 拦截名单 / 授权列表', 'URL 与 IP 名单；被拦截的地址；通过密码授权访问的地址。'],
    ],
    recover: ['误拦截正常访问：在日志中找到该请求，把 URL 或地址加入白名单，或把站点改为宽松模式。', '关闭网站模块即停止检查，站点照常可用。'],
  },
  trojan: {
    intro: '木马（Webshell）防护扫描网站目录中的脚本：YARA 特征规则之外，还解析 PHP 代码、判断用户输入是否流向 eval、system 等危险函数，并识别多层解码、JSP / ASP 木马和藏在图片里的脚本。开启后，写入防护目录的文件在关闭时立即扫描，一秒内按设置处理。',
    items: [
      ['防护目录', '要扫描和实时监控的目录：填写绝对路径，或选择从本机 nginx / Apache 发现的站点根目录。“立即扫描”扫描所有已启用的目录并显示进度，可随时停止。'],
      ['扫描结果', '每个可疑文件的描述、风险、路径、大小与修改时间；可信任（相同内容不再报告）、隔离、删除或仅记录。低危只列出，不处理。'],
      ['扫描设置', '实时防护开关、查杀类型（扩展名）、文件大小阈值（KB，超过则跳过）、自动处理方式（隔离 / 删除 / 仅记录）、白名单（部分路径必须包含 *）、隔离文件保留天数（0 永不删除）和每日定时扫描。'],
      ['自定义库', '你自己的 YARA 规则和 SHA-256 哈希；保存时编译检查，有误则显示编译器的提示且不保存。'],
      ['隔离文件', '隔离的文件移入仅 root 可读的隔离区并保留原路径、权限、属主和修改时间；可查看源码（只读，不执行）、还原（原路径已有文件时会再次询问是否覆盖；还原后其内容被信任，不再报告）或删除。'],
      ['木马审计', '安全审计中的木马标签页：对指定路径做一次扫描，结果的处理方式相同。'],
    ],
    recover: ['正常文件被隔离：在“隔离文件”中还原它，并在结果中选择“信任”或把路径加入白名单。', '关闭木马防护即停止实时监控；已隔离的文件保留在隔离区，直到还原、删除或超过保留天数。'],
  },
  remote: {
    intro: '远程登录防护保护 SSH：只允许指定来源地址或地区、在指定时间段内连接 sshd 的端口（端口读取自 sshd 的实际配置）。需要防火墙模块开启才生效。',
    items: [
      ['允许的 IP / 地区', '留空表示不限制来源。'],
      ['时间段', '可设多个，开始必须早于结束。'],
      ['暴力破解限制', '每小时失败次数与封锁分钟数，由防火墙的 SSH 检测执行。'],
      ['登录通知', '每次 SSH 登录成功都会记为事件，开启通知后按消息通知方式发送。'],
    ],
    recover: ['会切断你当前连接的改动同样先试用 60 秒。', '被挡在外：通过服务器控制台登录后运行 `npx rampart firewall off`。'],
  },
  account: {
    intro: '用户防护锁定系统账号文件（/etc/passwd、shadow、group、gshadow），禁止新建系统用户与改动用户组；可把 root 的 SSH 直接登录安全地关闭。',
    items: [
      ['锁定账号文件', '任何进程都不能修改、删除、重命名这些文件，useradd 也会被拒绝（尝试会记为事件）。'],
      ['临时解锁 N 分钟', '需要新增用户时使用，到时自动重新锁定，即使代理重启。'],
      ['修改管理员名', '列出特权账号；只有确认另一个 sudo 账号能登录后，才会关闭 root 的 SSH 直接登录。'],
    ],
    recover: ['撤销 root 登录限制：在页面上恢复，或删除 /etc/ssh/sshd_config.d/50-rampart-root-login.conf 后重载 sshd。'],
  },
  tamper: {
    intro: '防篡改在内核中保护目录和文件：按规则拒绝读、写、删除、创建、重命名、修改时间或执行，可为指定进程开放例外。',
    items: [
      ['保护路径', '文件或目录（含其下所有内容）；* 只能在最右端。'],
      ['子路径 / 进程', '子路径不含 / 时匹配任意深度的名称（如 *.php）；进程按可执行文件匹配。'],
      ['级别 1-99', '1 最先判断，第一条匹配的规则决定；不拒绝任何操作的规则就是放行规则（如让上传目录可写）。'],
      ['文件命名规则', '按模式禁止新名称，以及畸形文件名（控制字符、结尾的点或空格、a.php.jpg）。'],
    ],
    recover: [
      '覆盖 / 或整个 /etc 的规则要确认两次才会保存。',
      'Rampart 自己的目录始终放行。要立刻解除所有内核拦截：在服务器上运行 `apps/guard/build/rampart-guard --unload`。',
    ],
  },
  process: {
    intro: '进程防护按可执行文件限制进程：禁止启动、禁止 TCP / UDP 连接（可设允许的地址与地区）、限制其文件访问。',
    items: [
      ['进程路径', '精确路径或带 * 的模式；*xmrig 表示任何位置名为 xmrig 的程序。'],
      ['网络', '只允许连接白名单中的地址或地区。'],
      ['文件访问', '按级别为该进程允许或拒绝访问某些路径。'],
      ['白名单', '规则永远不限制的可执行文件。'],
    ],
    recover: ['规则误伤了正常程序：停用或删除该规则，立即生效。'],
  },
  cloud: {
    intro: '云防护把您选定的威胁情报名单（带签名的情报包）写入内核拦截。Rampart 不自带名单：用 scripts/feed-bundle.ts 从您选定的名单生成情报包。',
    items: [
      ['受信任的公钥', '只有这些公钥签名的情报包才能导入；被篡改、已过期、版本不更新或公钥未受信任的情报包一律拒绝，原有名单不变。'],
      ['情报源', '导入情报包文件，或填写地址让代理定时下载；显示条目数、命中次数、最后更新和状态。更新失败会记录事件，原有名单继续生效。'],
      ['永不拦截', '私有、回环、链路本地、共享和组播地址、超级白名单、自有地址以及您管理面板所用的地址总是被排除。'],
    ],
    recover: ['情报源误拦了正常地址：将其加入自有地址，或停用该情报源，立即生效。'],
  },
  audit: {
    intro: '安全审计检查系统配置（SSH、密码策略、账号、文件权限、内核参数、服务、日志等）并打分；系统加固可一键修复部分项目，并能逐项撤销。',
    items: [
      ['系统审计', '开始后在后台运行，显示进度；保留最近 20 次结果。'],
      ['系统加固', '选择可修复的失败项并应用；每项都可撤销，需要重启的会注明。'],
    ],
    recover: ['加固后出现问题：在加固页逐项或全部撤销，重启代理后依然可以撤销。'],
  },
  dynamic: {
    intro: '态势感知汇总各模块拦截的攻击：今日、昨日与累计次数，近 7 天趋势，攻击来源地图与最新 30 次攻击，随拦截实时更新。',
    items: [
      ['攻击地图', '按来源国家或地区画线到服务器位置；内网地址显示为“内网”。服务器位置可在设置中指定，留空则按本机公网地址识别。'],
      ['大屏', '点击“大屏”打开深色全屏页面（/dynamic/style_1），适合 1920x1080 的墙面显示。'],
    ],
    recover: ['地图上没有连线：在设置中填写服务器位置（两位国家代码，如 CN）。'],
  },
  log: {
    intro: '日志记录安全事件与管理操作（谁、从哪里、改了什么），以及通知与请求快照。简洁模式把同一地址同一天的同类攻击合并为一行并计数。',
    items: [
      ['系统日志', '按时间、模块、级别、IP 与关键字筛选，可导出。'],
      ['通知', '需要你注意的事件，例如封锁、授权即将到期。'],
      ['请求快照', '被拦截请求的原始内容，用于判断是否误拦截。'],
    ],
    recover: ['日志占用的磁盘超过告警值时会提醒；保留天数与日志模式在“系统设置 > 基本设置”。'],
  },
  system: {
    intro: '系统设置：面板本身、账号、通知、超级白名单、快捷操作与备份。',
    items: [
      ['基本设置', '系统防护总开关、日志模式与保留天数、NTP 与服务器别名。'],
      ['面板设置', '端口、HTTPS、绑定域名、安全入口、授权 IP、登录验证方式。'],
      ['日志备份', '把每天的日志归档上传到 FTP、S3 等位置。'],
      ['账号', '管理员、技术员、审计员，以及只能使用信任终端的“其他”账号；在线终端可强制下线。'],
      ['消息通知', '邮件、短信等通知方式。'],
      ['超级白名单', '跳过所有防护的地址（手动、面板登录时自动、信任终端），以及正在运行的信任终端。'],
      ['快捷操作 / 常用区域 / 配置备份', '免登录的一次性操作链接；防火墙与进程防护可引用的地区组合；整套配置的导出与恢复。'],
    ],
    recover: [
      '安全入口、绑定域名或授权 IP 把自己挡在外面：`npx rampart portal reset`。',
      '登录验证无法通过：`npx rampart login-check off`；丢失身份验证器：`npx rampart login-check reset-totp --username <账号>`。',
      '恢复配置前会自动保存当前配置，可再恢复回来。',
    ],
  },
};

const en: HelpBook = {
  dashboard: {
    intro: 'The home page sums up the server and its modules. The system status says "Protected" only when every module that is on runs properly; otherwise it names the module that is off or failing.',
    items: [
      ['System status / kernel status', 'The kernel status is the mechanism file and process protection use: BPF LSM (every operation can be denied) or the fanotify fallback (read, write and execute only).'],
      ['Open all basic modules', 'Switches on the built modules (firewall, remote, user, tamper and process protection) and says which could not be opened and why.'],
      ['Trust terminal', 'Keeps an administrator\'s computer trusted while it runs, so the server\'s own protection never locks you out when your address changes.'],
      ['Reboot server / restart software', 'Both ask first. A restart takes the console away for a few seconds; the page reloads when it is back.'],
    ],
    recover: ['The console does not open: run `npx rampart portal reset` on the server (clears the safe entry, bound domain and authorized IPs).', 'Forgotten password: `npx rampart admin reset-password`.'],
  },
  firewall: {
    intro: 'The host firewall runs in the kernel\'s nftables (table inet rampart) and checks every inbound packet in this order: super whitelist > whitelist > blacklist > interception list > rules.',
    items: [
      ['Inbound / outbound rules', 'Protocol, ports, source addresses or areas, action and priority (1 first); at equal priority a deny comes before an allow. Nothing matched: the packet passes.'],
      ['Attack protection', 'Port scans (counted in the kernel; over the limit the source is blocked) and SSH brute force (read from sshd\'s log); blocks end by themselves after the block time.'],
      ['Black and white lists', 'The whitelist lets in, the blacklist keeps out, each entry with a validity; single addresses, CIDR and ranges.'],
      ['Interception list', 'Addresses blocked for a while by a detection or by hand; deleting one unblocks it.'],
    ],
    recover: [
      'A change that would cut you off from the panel goes live on probation for 60 s: unconfirmed, it is rolled back.',
      'Locked out anyway: run `npx rampart firewall off` on the server; it removes the table and switches the module off.',
      'When Rampart stops, the firewall rules stay in the kernel and keep enforcing (by design).',
    ],
  },
  website: {
    intro: 'Website protection is a gateway in front of your web server: it inspects every request (injection, XSS, scanners, CC floods…), passes the legitimate ones and refuses attacks. With the module off, traffic flows uninspected.',
    items: [
      ['Protected objects', 'Sites found in the local nginx / Apache; the gateway takes over their listening port and forwards to the original server.'],
      ['Basic settings', 'Loose mode blocks clear attacks and records suspicious requests; strict mode blocks both.'],
      ['Request / access / injection / attack protection', 'Switches and limits for methods, sizes, header rules, upload types, hotlinking, keywords, CC rates and each kind of attack detection.'],
      ['Response settings', 'Cookie attributes, X-Frame-Options and the response filter.'],
      ['Lists / interception / authorization', 'URL and address lists; addresses blocked for now; addresses granted access by password.'],
    ],
    recover: ['A legitimate request refused: find it in the log, then whitelist its URL or address, or switch the site to loose mode.', 'Switching the website module off stops inspection; the sites keep working.'],
  },
  trojan: {
    intro: 'Trojan (web-shell) protection scans the scripts in site folders: beside YARA signature rules it parses PHP and follows user input into eval, system and the like, unwraps layered decoding, and knows JSP / ASP shells and scripts hidden in images. When on, a file written under a protected directory is scanned as soon as it is closed and handled within a second.',
    items: [
      ['Protected directories', 'The folders scanned and watched: type an absolute path or pick a site root found in the local nginx / Apache. "Scan now" scans every enabled directory with live progress; Stop ends it.'],
      ['Results', 'Each suspicious file with its description, risk, path, size and modify time; trust it (the same bytes are never reported again), isolate, delete or record only. Low risk is listed, never acted on.'],
      ['Scan settings', 'The real-time watch, kill types (extensions), the size threshold (KB; larger files are skipped), automatic handling (isolate / delete / record only), the whitelist (a partial path must contain *), days to keep isolated files (0 forever) and a daily scheduled scan.'],
      ['Custom library', 'Your own YARA rules and SHA-256 hashes; compiled when saved, and refused with the compiler\'s message when wrong.'],
      ['Isolated files', 'Moved into a root-only quarantine with the original path, mode, owner and modify time; view the source (read only, never run), restore (asked again before overwriting a file now at that path; the content of a restored file is trusted from then on) or delete.'],
      ['Trojan audit', 'The security audit\'s trojan tab: a one-off scan of the paths you name, handled the same way.'],
    ],
    recover: ['A legitimate file was isolated: restore it from Isolated files, then trust it in the results or whitelist its path.', 'Switching the module off stops the watch; isolated files stay in the quarantine until restored, deleted or past the keep days.'],
  },
  remote: {
    intro: 'Remote-login protection guards SSH: only the allowed source addresses or areas may reach sshd\'s port (read from sshd\'s effective configuration), and only in the time windows. It works while the firewall module is on.',
    items: [
      ['Allowed IPs / areas', 'Empty: any source.'],
      ['Time windows', 'Several allowed; each start must be before its end.'],
      ['Brute-force limit', 'Failed logins per hour and block minutes, enforced by the firewall\'s SSH detection.'],
      ['Login notification', 'Every successful SSH login is an event and, when on, a message by the notification methods.'],
    ],
    recover: ['A change that would cut your current connection also goes on a 60 s probation.', 'Locked out: sign in on the server\'s console and run `npx rampart firewall off`.'],
  },
  account: {
    intro: 'User protection locks the system account files (/etc/passwd, shadow, group, gshadow), forbids new system users and group changes, and can switch off root\'s direct SSH login safely.',
    items: [
      ['Lock the account files', 'No process may modify, delete or rename them; useradd is refused too (the attempt is an event).'],
      ['Unlock for N minutes', 'When you need to add a user; the lock comes back by itself, even across an agent restart.'],
      ['Change the administrator name', 'Lists the privileged accounts; root\'s direct SSH login is switched off only after another sudo account is shown to sign in.'],
    ],
    recover: ['Undo the root-login change on the page, or delete /etc/ssh/sshd_config.d/50-rampart-root-login.conf and reload sshd.'],
  },
  tamper: {
    intro: 'Tamper protection guards folders and files in the kernel: by rule it denies read, write, delete, create, rename, time changes or execute, with exceptions for chosen processes.',
    items: [
      ['Protected path', 'A file, or a folder and everything below it; * only at the right end.'],
      ['Sub path / process', 'A sub path without / matches the name at any depth (*.php); processes are matched by their executable.'],
      ['Level 1-99', '1 is checked first and the first matching rule decides; a rule that denies nothing is an allow rule (e.g. keep an uploads folder writable).'],
      ['Naming rules', 'Deny new names by pattern, and malformed names (control characters, a trailing dot or space, a.php.jpg).'],
    ],
    recover: [
      'A rule over / or the whole of /etc is saved only after two confirmations.',
      'Rampart\'s own folders are always allowed. To lift every kernel denial at once, run `apps/guard/build/rampart-guard --unload` on the server.',
    ],
  },
  process: {
    intro: 'Process protection restricts programs by their executable: deny start, deny TCP / UDP (with allowed addresses and areas), and limit their file access.',
    items: [
      ['Process path', 'An exact path or a pattern with *; *xmrig means a program named xmrig wherever it is.'],
      ['Network', 'Only the listed addresses or areas may be reached.'],
      ['File access', 'Allow or deny paths for that program, by level.'],
      ['Whitelist', 'Executables the rule never restricts.'],
    ],
    recover: ['A rule hurts a legitimate program: disable or delete it; that takes effect at once.'],
  },
  cloud: {
    intro: 'Cloud protection blocks the threat-intel lists you choose (signed bundles) in the kernel. Rampart ships no list: build a bundle from lists you choose with scripts/feed-bundle.ts.',
    items: [
      ['Trusted keys', 'Only bundles signed by these keys import; a tampered, expired, not newer or unknown-key bundle is refused and the installed list stays as it was.'],
      ['Feeds', 'Import a bundle file, or give a URL the agent fetches on a schedule; each shows its entries, hits, last update and state. A failed update is logged as an event and the installed list keeps blocking.'],
      ['Never blocked', 'Private, loopback, link-local, shared and multicast space, the super whitelist, your own addresses and the addresses you manage the panel from are always taken out.'],
    ],
    recover: ['A feed blocks a legitimate address: add it to your own addresses, or switch the feed off; that takes effect at once.'],
  },
  audit: {
    intro: 'The security audit checks the system\'s configuration (SSH, password policy, accounts, file permissions, kernel settings, services, logging…) and scores it; reinforcement fixes some failed items and can undo each one.',
    items: [
      ['System audit', 'Runs in the background with progress; the last 20 runs are kept.'],
      ['System reinforcement', 'Choose fixable failed items and apply; each can be reverted, and those that need a reboot say so.'],
    ],
    recover: ['Something broke after reinforcement: revert item by item or all on the reinforcement tab, also after an agent restart.'],
  },
  dynamic: {
    intro: 'Situational awareness sums up the attacks every module blocked: today, yesterday and in total, the last 7 days, a map of their sources and the latest 30, live as blocks happen.',
    items: [
      ['Attack map', 'Lines from each source country or region to the server\'s location; private addresses show as "Internal". Set the location in the settings, or leave it empty to take it from this server\'s public address.'],
      ['Big screen', 'Opens a dark full-screen page (/dynamic/style_1) made for a 1920x1080 wall display.'],
    ],
    recover: ['No lines on the map: set the server location (a two-letter country code such as US) in the settings.'],
  },
  log: {
    intro: 'The log records security events and administrative actions (who, from where, what changed), notices and request snapshots. Simple mode folds attacks of one kind from one address on one day into one row with a count.',
    items: [
      ['System log', 'Filter by time, module, level, IP and keyword; export.'],
      ['Notices', 'Events that need your attention, such as blocks or a licence about to expire.'],
      ['Request snapshots', 'The raw content of refused requests, to judge whether a refusal was wrong.'],
    ],
    recover: ['You are warned when the log store passes the disk limit; keep days and log mode are under System settings > Basic settings.'],
  },
  system: {
    intro: 'System settings: the panel itself, accounts, notifications, the super whitelist, shortcuts and backups.',
    items: [
      ['Basic settings', 'The protection master switch, log mode and keep days, NTP and the server alias.'],
      ['Panel settings', 'Port, HTTPS, bound domain, safe entry, authorized IPs, sign-in verification.'],
      ['Log backup', 'Uploads each day\'s log archive to FTP, S3 and the like.'],
      ['Accounts', 'Administrators, technicians, auditors, and "other" accounts that may use only the trust terminal; online sessions can be signed out.'],
      ['Message notification', 'E-mail, SMS and the other ways to send notices.'],
      ['Super whitelist', 'Addresses that pass every protection (added by hand, at panel sign-in, or by a trust terminal), and the trust terminals running.'],
      ['Shortcuts / common areas / configuration backup', 'Links that run one operation without signing in; named groups of areas the firewall and process protection use; export and restore of the whole configuration.'],
    ],
    recover: [
      'Shut out by the safe entry, bound domain or authorized IPs: `npx rampart portal reset`.',
      'Sign-in verification cannot be passed: `npx rampart login-check off`; lost authenticator: `npx rampart login-check reset-totp --username <account>`.',
      'A restore saves the current configuration first, so you can restore back.',
    ],
  },
};

export const helpBooks: Record<'zh-CN' | 'en-US', HelpBook> = { 'zh-CN': zh, 'en-US': en };
