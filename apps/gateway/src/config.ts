import { readFileSync } from 'node:fs';
import { gatewayConfigSchema, type GatewayConfig } from '@rampart/contracts';
import { planListeners } from './site-runtime.ts';

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
  try {
    planListeners(parsed.data);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  return { ok: true, config: parsed.data };
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
