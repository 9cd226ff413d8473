import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The device ID a licence binds to: a digest of the machine ID, so the raw ID never leaves the host.
 * RAMPART_DEVICE_ID overrides it (an operator moving a licence by hand, and tests that play two devices).
 */
export function deviceId(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.RAMPART_DEVICE_ID;
  if (override && /^[a-f0-9]{32}$/.test(override)) return override;
  let machineId = '';
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      machineId = readFileSync(path, 'utf8').trim();
      if (machineId) break;
    } catch {
      // try the next location
    }
  }
  if (!machineId) throw new Error('no machine ID found in /etc/machine-id; set RAMPART_DEVICE_ID to 32 hex digits');
  return createHash('sha256').update(`rampart-device:${machineId}`).digest('hex').slice(0, 32);
}
