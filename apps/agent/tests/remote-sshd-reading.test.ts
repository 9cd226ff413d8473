import { describe, expect, it } from 'vitest';
import { parseSshdEffective, readSshd } from '../src/remote/sshd-reading.ts';

describe("sshd's effective settings", () => {
  it('takes the listening ports from listenaddress, else port', () => {
    const text = 'port 22\nport 2200\nlistenaddress [::]:2200\nlistenaddress 0.0.0.0:2200\npasswordauthentication no\npermitrootlogin without-password\n';
    expect(parseSshdEffective(text)).toEqual({ ports: [2200], password_authentication: false, permit_root_login: 'without-password' });
    expect(parseSshdEffective('port 22\nport 2022\n').ports).toEqual([22, 2022]);
  });

  it('says why when sshd cannot be run', async () => {
    const reading = await readSshd(['/nonexistent/sshd', '-T']);
    expect(reading.ok).toBe(false);
    expect(reading.message).toContain('cannot run sshd');
  });

  it.skipIf(process.getuid?.() !== 0)("reads the host's sshd even when its service is not running (private /run)", async () => {
    const reading = await readSshd();
    // Where openssh-server is installed its effective config always names a port.
    if (reading.message.includes('cannot run sshd')) return;
    expect(reading.ok).toBe(true);
    expect(reading.ports.length).toBeGreaterThan(0);
  });
});
