import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { gatewayConfigSchema, type GatewayConfig } from '@rampart/contracts';

export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; reason: string };

/** Validates the desired state: JSON, the schema, and that every certificate actually loads. */
export function parseGatewayConfig(text: string): ConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  const parsed = gatewayConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { ok: false, reason };
  }
  const certificate = certificateProblem(parsed.data);
  if (certificate) return { ok: false, reason: certificate };
  return { ok: true, config: parsed.data };
}

/**
 * The first TLS certificate or key that does not load (named by site and address), or null. Checked
 * here rather than by building the workers' listener plan (site-runtime.ts): that compiles the
 * policy and so loads the whole engine, ~10 MiB the primary — which reads this file — never uses.
 * A policy the engine refuses still fails the reload: the new workers report it and the running
 * generation stays (primary.ts).
 */
function certificateProblem(config: GatewayConfig): string | null {
  for (const site of config.sites.filter((s) => s.running)) {
    for (const l of site.listen) {
      if (!l.tls) continue;
      try {
        createSecureContext({ cert: l.tls.cert, key: l.tls.key });
      } catch (err) {
        return `site ${site.id}: TLS certificate or key on ${l.address}:${l.port} does not load: ${(err as Error).message}`;
      }
    }
  }
  return null;
}

export function loadGatewayConfig(path: string): ConfigResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { ok: false, reason: `cannot read ${path}: ${(err as Error).message}` };
  }
  return parseGatewayConfig(text);
}
