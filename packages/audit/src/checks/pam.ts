import type { Facts } from '../facts/facts.ts';
import type { PamLine } from '../facts/pam.ts';
import { fail, pass, text, type AuditCheck, type Verdict } from './check.ts';
import type { AuditLevel, LocalizedText } from '@rampart/contracts';

/**
 * Password policy: shadow-utils' login.defs (CIS 5.4.1, new accounts and password changes) and the
 * PAM stack (CIS 5.3): pwquality for strength, faillock for lock-out after failures.
 */
interface LoginDefsRule {
  id: string;
  key: string;
  level: AuditLevel;
  /** What shadow-utils uses when the key is absent. */
  absent: string;
  accepts: (value: string) => boolean;
  expected: string;
  fix: string;
  title: LocalizedText;
  advice: LocalizedText;
}

const loginDefsRules: LoginDefsRule[] = [
  {
    id: 'pam.pass_max_days', key: 'PASS_MAX_DAYS', level: 'hint', absent: '99999', accepts: (v) => Number(v) >= 1 && Number(v) <= 365, expected: '1-365', fix: '365',
    title: text('密码永不过期', 'Passwords never expire'),
    advice: text('在 /etc/login.defs 设 PASS_MAX_DAYS 365；已有账号需用 chage -M 设置', 'Set PASS_MAX_DAYS 365 in /etc/login.defs; existing accounts need chage -M'),
  },
  {
    id: 'pam.pass_min_days', key: 'PASS_MIN_DAYS', level: 'hint', absent: '0', accepts: (v) => Number(v) >= 1, expected: '>= 1', fix: '1',
    title: text('密码可以立即再次修改', 'Passwords can be changed again at once'),
    advice: text('设 PASS_MIN_DAYS 1，防止用户连续修改密码绕过历史限制', 'Set PASS_MIN_DAYS 1 so users cannot cycle back to an old password at once'),
  },
  {
    id: 'pam.pass_warn_age', key: 'PASS_WARN_AGE', level: 'hint', absent: '7', accepts: (v) => Number(v) >= 7, expected: '>= 7', fix: '7',
    title: text('密码过期提醒过晚', 'Password expiry is announced too late'),
    advice: text('设 PASS_WARN_AGE 7 或更大', 'Set PASS_WARN_AGE to 7 or more'),
  },
  {
    id: 'pam.umask', key: 'UMASK', level: 'hint', absent: '022', accepts: (v) => (parseInt(v, 8) & 0o027) === 0o027, expected: '027 or stricter', fix: '027',
    title: text('默认 umask 过宽', 'The default umask is too permissive'),
    advice: text('设 UMASK 027，新文件不再对其他用户可读', 'Set UMASK 027 so new files are not readable by other users'),
  },
  {
    id: 'pam.encrypt_method', key: 'ENCRYPT_METHOD', level: 'warning', absent: 'DES', accepts: (v) => ['SHA512', 'YESCRYPT'].includes(v.toUpperCase()), expected: 'SHA512 or YESCRYPT', fix: 'YESCRYPT',
    title: text('密码哈希算法过弱', 'The password hash method is weak'),
    advice: text('设 ENCRYPT_METHOD YESCRYPT 或 SHA512', 'Set ENCRYPT_METHOD to YESCRYPT or SHA512'),
  },
];

const fromLoginDefs = (rule: LoginDefsRule): AuditCheck => ({
  id: rule.id,
  cisSection: '5.4.1',
  category: 'pam',
  level: rule.level,
  title: rule.title,
  advice: rule.advice,
  uses: ['loginDefs'],
  run: (facts) => {
    const setting = facts.loginDefs.get(rule.key);
    const value = setting?.value ?? rule.absent;
    const evidence = { file: '/etc/login.defs', line: setting?.line, found: `${rule.key} ${value}${setting ? '' : ' (not set)'}`, expected: `${rule.key} ${rule.expected}` };
    return rule.accepts(value) ? pass(evidence) : fail(evidence);
  },
  fix: () => ({ kind: 'login_defs', settings: { [rule.key]: rule.fix } }),
});

const lineEvidence = (l: PamLine) => ({ file: l.file, line: l.line, found: `${l.type} ${l.control} ${l.module} ${l.args.join(' ')}`.trim() });

function pwqualityValue(facts: Facts, key: string): { value: string | undefined; file?: string; line?: number } {
  // Module arguments override the configuration file (pam_pwquality(8)).
  const onLine = facts.pam.password.find((l) => l.module === 'pam_pwquality.so')?.args.find((a) => a.startsWith(`${key}=`));
  if (onLine) return { value: onLine.slice(key.length + 1), file: '/etc/pam.d/common-password' };
  const setting = facts.pwquality.get(key);
  return { value: setting?.value, file: setting?.file, line: setting?.line };
}

function withPwquality(facts: Facts, judge: () => Verdict): Verdict {
  const module = facts.pam.password.find((l) => l.module === 'pam_pwquality.so' || l.module === 'pam_cracklib.so');
  if (!module) return fail({ file: '/etc/pam.d/common-password', found: 'no pam_pwquality.so', expected: 'password requisite pam_pwquality.so' });
  return judge();
}

const pwqualityLength: AuditCheck = {
  id: 'pam.pwquality_minlen',
  cisSection: '5.3',
  category: 'pam',
  level: 'warning',
  title: text('未强制足够的密码长度', 'No adequate minimum password length is enforced'),
  advice: text('安装 libpam-pwquality，并在 /etc/security/pwquality.conf 设 minlen = 14', 'Install libpam-pwquality and set minlen = 14 in /etc/security/pwquality.conf'),
  uses: ['pam', 'pwquality'],
  run: (facts) =>
    withPwquality(facts, () => {
      const { value, file, line } = pwqualityValue(facts, 'minlen');
      const evidence = { file, line, found: `minlen ${value ?? '8 (default)'}`, expected: 'minlen >= 14' };
      return Number(value ?? 8) >= 14 ? pass(evidence) : fail(evidence);
    }),
};

const pwqualityClasses: AuditCheck = {
  id: 'pam.pwquality_complexity',
  cisSection: '5.3',
  category: 'pam',
  level: 'hint',
  title: text('未要求密码包含多种字符', 'Passwords need not mix character classes'),
  advice: text('在 pwquality.conf 设 minclass = 4，或 dcredit/ucredit/lcredit/ocredit 均为 -1', 'Set minclass = 4 in pwquality.conf, or dcredit, ucredit, lcredit and ocredit to -1'),
  uses: ['pam', 'pwquality'],
  run: (facts) =>
    withPwquality(facts, () => {
      const minclass = Number(pwqualityValue(facts, 'minclass').value ?? 0);
      const credits = ['dcredit', 'ucredit', 'lcredit', 'ocredit'].map((k) => Number(pwqualityValue(facts, k).value ?? 0));
      const evidence = { file: '/etc/security/pwquality.conf', found: `minclass ${minclass}; d/u/l/ocredit ${credits.join('/')}`, expected: 'minclass 4 or every credit -1' };
      return minclass >= 4 || credits.every((c) => c <= -1) ? pass(evidence) : fail(evidence);
    }),
};

const faillock: AuditCheck = {
  id: 'pam.faillock',
  cisSection: '5.3',
  category: 'pam',
  level: 'warning',
  title: text('多次登录失败后不锁定账号', 'Accounts are not locked after repeated login failures'),
  advice: text('在 common-auth 中启用 pam_faillock（deny=5 unlock_time=900）', 'Enable pam_faillock in common-auth (deny=5 unlock_time=900)'),
  uses: ['pam'],
  run: (facts) => {
    const line = facts.pam.auth.find((l) => l.module === 'pam_faillock.so' || l.module === 'pam_tally2.so');
    return line ? pass(lineEvidence(line)) : fail({ file: '/etc/pam.d/common-auth', found: 'no pam_faillock.so', expected: 'auth required pam_faillock.so preauth / authfail' });
  },
};

const nullok: AuditCheck = {
  id: 'pam.unix_nullok',
  cisSection: '5.3',
  category: 'pam',
  level: 'hint',
  title: text('PAM 接受空密码', 'PAM accepts empty passwords'),
  advice: text('从 common-auth 与 common-password 的 pam_unix.so 行去掉 nullok', 'Remove nullok from the pam_unix.so lines of common-auth and common-password'),
  uses: ['pam'],
  run: (facts) => {
    const lines = [...facts.pam.auth, ...facts.pam.password].filter((l) => l.module === 'pam_unix.so' && l.args.includes('nullok'));
    return lines.length === 0 ? pass({ note: 'no pam_unix.so line has nullok' }) : fail(...lines.map(lineEvidence));
  },
};

const unixHash: AuditCheck = {
  id: 'pam.unix_hash',
  cisSection: '5.3',
  category: 'pam',
  level: 'warning',
  title: text('PAM 使用弱密码哈希', 'PAM stores passwords with a weak hash'),
  advice: text('common-password 的 pam_unix.so 应使用 yescrypt 或 sha512', 'pam_unix.so in common-password should use yescrypt or sha512'),
  uses: ['pam'],
  run: (facts) => {
    const line = facts.pam.password.find((l) => l.module === 'pam_unix.so');
    if (!line) return fail({ file: '/etc/pam.d/common-password', found: 'no pam_unix.so line', expected: 'pam_unix.so yescrypt' });
    const weak = line.args.some((a) => ['md5', 'bigcrypt', 'blowfish'].includes(a));
    const strong = line.args.some((a) => ['yescrypt', 'sha512', 'gost_yescrypt'].includes(a));
    return strong && !weak ? pass(lineEvidence(line)) : fail({ ...lineEvidence(line), expected: 'yescrypt or sha512' });
  },
};

export const pamChecks: AuditCheck[] = [...loginDefsRules.map(fromLoginDefs), pwqualityLength, pwqualityClasses, faillock, nullok, unixHash];
