/**
 * Mail injection: a line break in a value the application puts into a message header or an
 * SMTP / IMAP conversation, followed by a header (Bcc:, Cc:, To:…) or a protocol command
 * (RCPT TO:, QUIT, "A1 FETCH 1:*", POP3's "RETR 1"). Protocol commands are matched upper-case as the
 * protocols write them, so a textarea line "quit smoking" passes (lower-case only with the
 * protocol's own arguments, after a line break that opens the value). In free-text bodies "To: Alice" at the
 * start of a line is ordinary; there only Bcc / Cc and SMTP envelope commands count.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

const strongHeaders = new Set(['bcc', 'cc']);
const weakHeaders = new Set(['to', 'from', 'subject', 'reply-to', 'sender', 'return-path', 'content-type', 'mime-version', 'content-transfer-encoding']);
const smtpCommands = /^(?:RCPT TO:|MAIL FROM:|DATA$|QUIT$|RSET$|HELO\s|EHLO\s|VRFY\s|EXPN\s|STARTTLS$|AUTH\s)/;
/**
 * POP3 commands with the arguments only the protocol gives them (message numbers, an APOP digest):
 * "list 3" or "top 10" in a sentence goes on with words, on a line of its own it is a command.
 */
const pop3Commands = /^(?:(?:RETR|DELE|TOP|LIST|UIDL)\s+\d{1,9}(?:\s+\d{1,9})?|APOP\s+\S{1,64}\s+[0-9a-f]{32}|STAT|CAPA|STLS)$/i;
/** SMTP's HELP (`HELP Postmaster`): "HELP NEEDED" is also a shout in a message, so outside free text only. */
const smtpHelp = /^HELP(?:\s+\S+)?$/;
/** IMAP arguments no sentence has: a sequence range (2:4), a system flag (\Seen), +FLAGS, a literal {310}. */
const imapArguments = /\d:(?:\d|\*)|\\[A-Z][a-z]+|[+-]FLAGS|\{\d+\}/;
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
  if (location === 'file_content' || location === 'raw_body') return null;
  // A typed textarea starts with text; a value that starts with a line break was built to inject one.
  const injected = /^[^\S\r\n]*[\r\n]/.test(value);
  // XML text runs between elements and indented lines; only a value that opens with a line break
  // right followed by an unindented line (`probe="&#13;&#10;RETR 1"`) was written as an injection.
  if (location === 'xml' && !/^[\r\n]+\S/.test(value)) return null;
  const freeText = location === 'body' && !injected;
  const lines = value.slice(0, 16384).split(/\r\n|\r|\n/);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    if (smtpCommands.test(line)) return hit('mail.smtp_command', line, freeText && !line.includes(':') ? 1 : 2);
    // (Not in typed free text: "list 3" may be a line of a shopping list.)
    if (!freeText && pop3Commands.test(line)) return hit('mail.pop3_command', line, 2);
    if (!freeText && smtpHelp.test(line)) return hit('mail.smtp_command', line, 2);
    const imap = /^([A-Za-z0-9]{1,10}) ([A-Za-z]+)\b/.exec(line);
    if (imap && isImapCommand(imap[1]!, imap[2]!, line.slice(imap[0].length), injected)) {
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

/**
 * `A1 FETCH 1:*`: a tag with a digit and an upper-case command, as clients write them. After a
 * line break that opens the value (built to inject), clients' lower-case spellings count too
 * (`a001 uid store 231:233`, `d store 2 +FLAGS (\Deleted)`), when the tag has a digit or the
 * arguments are IMAP's own ("Let's go to the store" has neither).
 */
function isImapCommand(tag: string, command: string, rest: string, injected: boolean): boolean {
  const upper = command.toUpperCase();
  if (!imapCommands.has(upper) && !(upper === 'QUIT' && command === upper)) return false;
  const tagged = /\d/.test(tag);
  if (command === upper && tagged) return true;
  return injected && (tagged || imapArguments.test(rest));
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'mail_injection', rule, evidence: evidence.slice(0, 120), severity };
}
