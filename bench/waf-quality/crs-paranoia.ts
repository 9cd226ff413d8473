/**
 * The paranoia level of each rule of the CRS installed for the peer (Debian's modsecurity-crs),
 * read from its `tag:'paranoia-level/N'`. The regression corpus covers every level (and a newer CRS);
 * at PL1 the peer cannot be expected to catch a test whose rules sit at PL2-4, so the report also
 * shows the attacks whose expected rules all exist at PL1 in the installed rule set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function crsRuleLevels(rulesDir = '/usr/share/modsecurity-crs/rules'): Map<number, number> {
  const levels = new Map<number, number>();
  if (!existsSync(rulesDir)) return levels;
  for (const file of readdirSync(rulesDir).filter((f) => f.endsWith('.conf'))) {
    let current: number | null = null;
    for (const line of readFileSync(join(rulesDir, file), 'utf8').split('\n')) {
      const id = /["\s,]id:(\d+)/.exec(' ' + line);
      if (id) current = Number(id[1]);
      const level = /tag:'paranoia-level\/(\d)'/.exec(line);
      if (level && current !== null && !levels.has(current)) levels.set(current, Number(level[1]));
    }
  }
  return levels;
}
