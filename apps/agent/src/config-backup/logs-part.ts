import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { backupRuleTarget, defaultLogSettings, type BackupRuleInput, type ConfigLogs } from '@rampart/contracts';
import type { LogService } from '../logs/log-service.ts';
import type { SecretBox } from '../logs/sealed-secrets.ts';
import { writeFileAtomic } from '../modules/atomic-write.ts';

/** The sealed secrets of the stored rules, read from the logging file (the store never hands them out). */
const sealedFileSchema = z.object({ rules: z.array(z.object({ id: z.number(), password: z.string(), access_secret: z.string() })) });

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readSealed(file: string): Promise<Map<number, { password: string; access_secret: string }>> {
  const text = await readText(file);
  let parsed;
  try {
    parsed = text === null ? null : sealedFileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = null;
  }
  return new Map((parsed?.success ? parsed.data.rules : []).map((r) => [r.id, r]));
}

/** The logging settings and log-backup rules as a configuration file carries them (secrets stay sealed). */
export async function exportLogs(logs: LogService): Promise<ConfigLogs> {
  const sealed = await readSealed(logs.config.file);
  return {
    settings: logs.config.settings,
    backup_rules: logs.config.views().map((view) => ({
      rule: {
        enabled: view.enabled, type: view.type, bucket: view.bucket, domain: view.domain, ip: view.ip, port: view.port,
        username: view.username, password: '', access_id: view.access_id, access_secret: '', save_path: view.save_path, remark: view.remark,
      },
      sealed_password: sealed.get(view.id)?.password ?? '',
      sealed_access_secret: sealed.get(view.id)?.access_secret ?? '',
    })),
  };
}

/**
 * Puts the logging part in place; answers how to put the old one back and how many secrets did
 * not open here. A secret sealed on another machine does not open: the rule then keeps the secret
 * of the rule with the same target here (blank keeps the stored one), or has none.
 */
export async function importLogs(logs: LogService, box: SecretBox, part: ConfigLogs): Promise<{ undo: () => Promise<void>; secretsDropped: number }> {
  const handlers = logs.handlers();
  const oldText = await readText(logs.config.file);
  const oldSettings = logs.config.settings;
  const current = new Map(logs.config.views().map((view) => [backupRuleTarget(view), view]));
  let secretsDropped = 0;
  const open = (sealed: string): string | null => {
    try {
      return box.open(sealed);
    } catch {
      return null;
    }
  };
  const sealedHere = await readSealed(logs.config.file);
  const rules: BackupRuleInput[] = part.backup_rules.map(({ rule, sealed_password, sealed_access_secret }) => {
    const here = current.get(backupRuleTarget(rule));
    const stored = here ? sealedHere.get(here.id) : undefined;
    // Blank (with the rule's id) keeps the stored secret: used when the file's does not open here,
    // and when it is the same secret (so restoring the same file twice changes nothing).
    const secretOf = (sealed: string, storedSealed: string | undefined, hasHere: boolean): string => {
      const plain = open(sealed);
      if (plain === null) {
        if (!hasHere) secretsDropped += 1;
        return '';
      }
      return storedSealed !== undefined && plain !== '' && open(storedSealed) === plain ? '' : plain;
    };
    const password = secretOf(sealed_password, stored?.password, here?.has_password ?? false);
    const secret = secretOf(sealed_access_secret, stored?.access_secret, here?.has_access_secret ?? false);
    const keepsHere = here !== undefined && ((password === '' && sealed_password !== '') || (secret === '' && sealed_access_secret !== ''));
    return { ...rule, ...(keepsHere ? { id: here.id } : {}), password, access_secret: secret };
  });

  const undo = async () => {
    await writeFileAtomic(logs.config.file, oldText ?? JSON.stringify({ settings: defaultLogSettings, rules: [] }));
    await logs.config.load();
    await handlers['logs.settings.set']({ settings: oldSettings });
  };
  try {
    await handlers['logs.settings.set']({ settings: part.settings });
    await handlers['logs.backup.set']({ rules });
  } catch (error) {
    await undo();
    throw error;
  }
  return { undo, secretsDropped };
}
