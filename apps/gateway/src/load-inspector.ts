import type { AttackKind, Decision, InputLimits, WafRequest } from '@rampart/waf';
import { bodyLimitsFor } from './body-limits.ts';
import { passInspector, type Inspector } from './inspector.ts';

/**
 * The inspector a worker uses: a module named by option (it exports `inspector` or `inspect`), else
 * the engine's `inspect` from @rampart/waf once it exists, else pass-through with a warning (the
 * gateway still proxies; nothing is inspected).
 */
export async function loadInspector(specifier: string | undefined, warn: (m: string) => void): Promise<Inspector> {
  const mod = (await import(specifier ?? '@rampart/waf')) as {
    inspector?: Inspector;
    inspect?: (r: WafRequest, options: { mode: 'loose' | 'strict'; kinds?: readonly AttackKind[]; limits?: Partial<InputLimits> }) => Decision | Promise<Decision>;
  };
  if (mod.inspector && typeof mod.inspector.inspect === 'function') return mod.inspector;
  const inspect = mod.inspect;
  // The engine's `inspect(request, { mode, kinds, limits })`: the site's block mode and body window, the policy's attack kinds.
  if (typeof inspect === 'function') {
    return {
      inspect: (r, site, options) => {
        const limits = { maxBodyBytes: bodyLimitsFor(site).maxBodyBytes };
        return inspect(r, options?.kinds ? { mode: site.block_mode, kinds: options.kinds, limits } : { mode: site.block_mode, limits });
      },
    };
  }
  warn(`no inspector in ${specifier ?? '@rampart/waf'}: sites with status on pass uninspected`);
  return passInspector;
}
