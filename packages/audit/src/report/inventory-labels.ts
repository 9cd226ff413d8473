import type { AuditLevel, PatchLevel, PatchStatus, ProcessFindingKind, UserFindingKind } from '@rampart/contracts';

/*
 * The report's words for the user, process and patch sections, in both languages (beside the
 * builder like labels.ts: the report is read without the console). Finding titles and advice say
 * what the web's user and process tabs say.
 */
interface Finding {
  title: string;
  advice: string;
}

const en = {
  section: {
    accounts: 'Account findings',
    accounts_empty: 'No account has a finding.',
    processes: 'Process findings',
    processes_empty: 'No process has a finding.',
    not_saved: 'This audit ran before account and process findings were saved with each run, so this report cannot show what they were at the time; see the Account audit and Process audit tabs for today\'s.',
    patches: 'Pending patches',
    patches_empty: 'No pending update at the last check.',
    patches_never: 'Patches were never checked on this server.',
  },
  col: {
    account: 'Account', process: 'Process', pid: 'PID', user: 'User', path: 'Path', finding: 'Finding', level: 'Level', detail: 'Detail', advice: 'Advice',
    package: 'Package', installed: 'Installed', new_version: 'New version', origin: 'Origin', release_date: 'Released', status: 'Status',
  },
  level: { hint: 'Hint', warning: 'Warning', danger: 'Danger' } satisfies Record<AuditLevel, string>,
  user: {
    uid0_duplicate: { title: 'Second UID 0', advice: 'It is root under another name; remove it unless you made it on purpose.' },
    empty_password: { title: 'Empty password', advice: 'Set a password or lock the account (passwd -l).' },
    weak_hash: { title: 'Weak password hash', advice: 'Set the password again: Debian 12 stores new ones with yescrypt.' },
    recently_created: { title: 'Created recently', advice: 'Check that you or your team created it.' },
    unexpected_sudoer: { title: 'Unexpected sudo rule', advice: 'Check the rule shown; an attacker may have added it.' },
  } satisfies Record<UserFindingKind, Finding>,
  process: {
    exe_deleted: { title: 'Executable deleted', advice: 'Malware deletes itself to hide; a daemon not restarted after an upgrade also shows this.' },
    exe_in_temp: { title: 'Runs from a temp directory', advice: 'Software is not installed in /tmp, /var/tmp or /dev/shm; downloaded attack tools are.' },
    unpackaged: { title: 'Not from a package', advice: 'Self-built and vendored programs are fine; anything unknown is worth a look.' },
    listening: { title: 'Listening', advice: 'Make sure each port is a service you run.' },
    web_shell: { title: 'Shell under a web server', advice: 'That is how a web shell runs commands; find the script that started it.' },
  } satisfies Record<ProcessFindingKind, Finding>,
  patch_level: { emergency: 'Emergency', important: 'Important', optional: 'Optional' } satisfies Record<PatchLevel, string>,
  patch_status: {
    waiting_update: 'Waiting to update', waiting_download: 'Waiting to download', downloading: 'Downloading', download_failed: 'Download failed',
    download_finished: 'Download finished', waiting_install: 'Waiting to install', installing: 'Installing', install_failed: 'Install failed', install_finished: 'Install finished',
  } satisfies Record<PatchStatus, string>,
};

const zh: typeof en = {
  section: {
    accounts: '账号审计发现',
    accounts_empty: '没有发现问题的账号。',
    processes: '进程审计发现',
    processes_empty: '没有发现问题的进程。',
    not_saved: '该次体检早于随体检保存账号与进程发现的版本，本报告无法给出当时的情况；当前情况请查看账号审计和进程审计页。',
    patches: '待安装补丁',
    patches_empty: '上次检查时没有待更新的软件包。',
    patches_never: '本服务器尚未检查过补丁。',
  },
  col: {
    account: '账号', process: '进程', pid: 'PID', user: '用户', path: '路径', finding: '发现', level: '级别', detail: '详情', advice: '建议',
    package: '软件包', installed: '当前版本', new_version: '新版本', origin: '来源', release_date: '发布日期', status: '状态',
  },
  level: { hint: '提示', warning: '警告', danger: '危险' },
  user: {
    uid0_duplicate: { title: '多余的 UID 0', advice: '它等于换了名字的 root；除非是您有意创建，否则请删除。' },
    empty_password: { title: '空密码', advice: '请设置密码或锁定账号（passwd -l）。' },
    weak_hash: { title: '弱密码哈希', advice: '请重新设置密码：Debian 12 会用 yescrypt 保存新密码。' },
    recently_created: { title: '近期创建', advice: '请确认是您或同事创建的。' },
    unexpected_sudoer: { title: '异常的 sudo 规则', advice: '请检查所示规则，它可能是攻击者添加的。' },
  },
  process: {
    exe_deleted: { title: '程序文件已删除', advice: '恶意程序常删除自身以隐藏；升级后未重启的服务也会这样。' },
    exe_in_temp: { title: '从临时目录运行', advice: '正常软件不会安装在 /tmp、/var/tmp 或 /dev/shm，下载的攻击工具却常放在这里。' },
    unpackaged: { title: '不属于软件包', advice: '自行编译或随应用附带的程序属正常；来历不明的值得检查。' },
    listening: { title: '监听端口', advice: '请确认每个端口都是您运行的服务。' },
    web_shell: { title: 'Web 服务下的 shell', advice: '这正是网页木马执行命令的方式；请找出启动它的脚本。' },
  },
  patch_level: { emergency: '紧急', important: '重要', optional: '可选' },
  patch_status: {
    waiting_update: '等待更新', waiting_download: '等待下载', downloading: '下载中', download_failed: '下载失败',
    download_finished: '下载完成', waiting_install: '等待安装', installing: '安装中', install_failed: '安装失败', install_finished: '安装完成',
  },
};

export type InventoryReportLabels = typeof en;
export const inventoryReportLabels = { 'zh-CN': zh, 'en-US': en } as const;
