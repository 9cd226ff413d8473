import type { AttackKind, Decision, WafRequest } from '@rampart/waf';
import { passInspector, type Inspector } from './inspector.ts';

/**
 * The inspector a worker uses: a module named by option (it exports `inspector` or `inspect`), else
 * the engine's `inspect` from @rampart/waf once it exists, else pass-through with a warning (the
 * gateway still proxies; nothing is inspected).
 */
export async function loadInspector(specifier: string | undefined, warn: (m: string) => void): Promise<Inspector> {
  const mod = (await import(specifier ?? '@rampart/waf')) as {
    inspector?: Inspector;
    inspect?: (r: WafRequest, options: { mode: 'loose' | 'strict'; kinds?: readonly AttackKind[] }) => Decision | Promise<Decision>;
  };
  if (mod.inspector && typeof mod.inspector.inspect === 'function') return mod.inspector;
  const inspect = mod.inspect;
  // The engine's `inspect(request, { mode, kinds })`: the site's block mode, the policy's attack kinds.
  if (typeof inspect === 'function') return { inspect: (r, site, options) => inspect(r, options?.kinds ? { mode: site.block_mode, kinds: options.kinds } : { mode: site.block_mode }) };
  warn(`no inspector in ${specifier ?? '@rampart/waf'}: sites with status on pass uninspected`);
  return passInspector;
}
