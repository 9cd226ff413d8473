/**
 * Mail injection: a line break in a value the application puts into a message header or an
 * SMTP / IMAP conversation, followed by a header (Bcc:, Cc:, To:…) or a protocol command
 * (RCPT TO:, QUIT, "A1 FETCH 1:*"). Protocol commands are matched upper-case as the protocols
 * write them, so a textarea line "quit smoking" passes. In free-text bodies "To: Alice" at the
 * start of a line is ordinary; there only Bcc / Cc and SMTP envelope commands count.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

const strongHeaders = new Set(['bcc', 'cc']);
const weakHeaders = new Set(['to', 'from', 'subject', 'reply-to', 'sender', 'return-path', 'content-type', 'mime-version', 'content-transfer-encoding']);
const smtpCommands = /^(?:RCPT TO:|MAIL FROM:|DATA$|QUIT$|RSET$|HELO\s|EHLO\s|VRFY\s|EXPN\s|STARTTLS$|AUTH\s)/;
const imapCommands = new Set([
  'CAPABILITY', 'FETCH', 'LOGIN', 'SELECT', 'EXAMINE', 'LIST', 'LSUB', 'STATUS', 'APPEND', 'CHECK', 'CLOSE', 'EXPUNGE',
  'SEARCH', 'STORE', 'COPY', 'UID', 'LOGOUT', 'NOOP', 'AUTHENTICATE', 'CREATE', 'DELETE', 'RENAME', 'SUBSCRIBE',
]);

export function detectMailInjection(value: string, location: InputLocation): DetectorHit | null {
  try {
    return detect(value, location);
  } catch {
    return null;
  }
}

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (!value.includes('\n') && !value.includes('\r')) return null;
  if (location === 'file_content' || location === 'raw_body' || location === 'xml') return null;
  // A typed textarea starts with text; a value that starts with a line break was built to inject one.
  const freeText = location === 'body' && !/^[^\S\r\n]*[\r\n]/.test(value);
  const lines = value.slice(0, 16384).split(/\r\n|\r|\n/);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    if (smtpCommands.test(line)) return hit('mail.smtp_command', line, freeText && !line.includes(':') ? 1 : 2);
    const imap = /^[A-Za-z0-9]{1,10} ([A-Z]+)\b/.exec(line);
    if (imap && imapCommands.has(imap[1]!) && /\d/.test(line.slice(0, imap[0].length - imap[1]!.length))) {
      return hit('mail.imap_command', line, freeText ? 1 : 2);
    }
    const colon = line.indexOf(':');
    if (colon > 0 && colon < 30) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (strongHeaders.has(name) && line.includes('@')) return hit('mail.header_injection', line, 2);
      if (!freeText && weakHeaders.has(name)) return hit('mail.header_injection', line, line.includes('@') ? 2 : 1);
    }
  }
  return null;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'mail_injection', rule, evidence: evidence.slice(0, 120), severity };
}
