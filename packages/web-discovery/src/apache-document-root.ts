/**
 * `apachectl -S` names each virtual host's file and line but not its DocumentRoot: it is read from
 * the `<VirtualHost>` block that starts at that line. Null when the block sets none (Apache then
 * serves its global DocumentRoot, which -S does not give either).
 */
export function apacheDocumentRoot(configText: string, line: number): string | null {
  for (const raw of configText.split('\n').slice(Math.max(0, line - 1))) {
    const trimmed = raw.trim();
    if (/^<\/VirtualHost>/i.test(trimmed)) break;
    const match = /^DocumentRoot\s+("?)([^"]+)\1\s*$/i.exec(trimmed);
    if (match?.[2]) return match[2];
  }
  return null;
}
