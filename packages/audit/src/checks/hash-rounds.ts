import { fail, notApplicable, pass, text, type AuditCheck } from './check.ts';

/**
 * How costly each password hash is (Lynis AUTH-9230): the cost keys of /etc/login.defs for the
 * method in use. Unset, shadow-utils falls back to its built-in cost (5000 SHA rounds, yescrypt
 * factor 5) and any later package default; set, the cost is a stated choice that survives upgrades.
 */
const costKeys: Record<string, { keys: string[]; min: number; fix: Record<string, string> }> = {
  SHA512: { keys: ['SHA_CRYPT_MIN_ROUNDS', 'SHA_CRYPT_MAX_ROUNDS'], min: 5000, fix: { SHA_CRYPT_MIN_ROUNDS: '5000', SHA_CRYPT_MAX_ROUNDS: '10000' } },
  SHA256: { keys: ['SHA_CRYPT_MIN_ROUNDS', 'SHA_CRYPT_MAX_ROUNDS'], min: 5000, fix: { SHA_CRYPT_MIN_ROUNDS: '5000', SHA_CRYPT_MAX_ROUNDS: '10000' } },
  YESCRYPT: { keys: ['YESCRYPT_COST_FACTOR'], min: 5, fix: { YESCRYPT_COST_FACTOR: '5' } },
};

const methodOf = (value: string | undefined) => (value ?? 'DES').toUpperCase();

export const hashRoundsCheck: AuditCheck = {
  id: 'pam.hash_rounds',
  cisSection: '5.4.1',
  category: 'pam',
  level: 'hint',
  title: text('未设置密码哈希的计算轮数', 'The password hashing cost is not set'),
  advice: text('在 /etc/login.defs 设置 YESCRYPT_COST_FACTOR（yescrypt）或 SHA_CRYPT_MIN_ROUNDS / SHA_CRYPT_MAX_ROUNDS（SHA512）', 'Set YESCRYPT_COST_FACTOR (yescrypt) or SHA_CRYPT_MIN_ROUNDS / SHA_CRYPT_MAX_ROUNDS (SHA512) in /etc/login.defs'),
  uses: ['loginDefs'],
  run: (facts) => {
    const method = methodOf(facts.loginDefs.get('ENCRYPT_METHOD')?.value);
    const cost = costKeys[method];
    // A weak method is pam.encrypt_method's finding; rounds do not apply to it.
    if (!cost) return notApplicable(`ENCRYPT_METHOD ${method} has no cost setting`);
    const set = cost.keys.map((key) => ({ key, setting: facts.loginDefs.get(key) })).filter((s) => s.setting !== undefined);
    const expected = `${cost.keys.join(' / ')} >= ${cost.min}`;
    if (set.length === 0) return fail({ file: '/etc/login.defs', found: `ENCRYPT_METHOD ${method}, ${cost.keys.join(' / ')} not set`, expected });
    const evidence = set.map(({ key, setting }) => ({ file: '/etc/login.defs', line: setting?.line, found: `${key} ${setting?.value}`, expected }));
    return set.every(({ setting }) => Number(setting?.value) >= cost.min) ? pass(...evidence) : fail(...evidence);
  },
  fix: (facts) => ({ kind: 'login_defs', settings: costKeys[methodOf(facts.loginDefs.get('ENCRYPT_METHOD')?.value)]?.fix ?? costKeys.YESCRYPT!.fix }),
};
