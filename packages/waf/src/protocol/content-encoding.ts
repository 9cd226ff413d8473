/**
 * A compressed request body (`Content-Encoding`). gzip, deflate and br bodies are inflated and read
 * like any other (parse/body-encoding.ts): Sentry SDKs, OpenTelemetry exporters, mobile apps and
 * Elasticsearch clients send them, and an API with a decompression middleware reads what a filter
 * that stopped at the compressed bytes would not. What the engine cannot inflate stays a finding.
 *
 * Severities: a coding the engine does not inflate (`zstd`, `compress`, a made-up one, four layers),
 * a body that does not inflate as labelled, or the header on a request without a body: 1, strict only (its content went unread, but odd
 * clients and broken proxies exist, and an application cannot read such a body either).
 */
import { defaultInputLimits } from '../inputs.ts';
import { codingsDecodable, contentCodings, decodeContentEncoding } from '../parse/body-encoding.ts';
import { protocolHit, type ProtocolHit } from './hit.ts';
import type { RequestView } from './view.ts';

/** The engine's own default body window: inflation stops there (and the memoised result is shared with inputs.ts). */
const maxBytes = defaultInputLimits.maxBodyBytes;

function codingsOf(view: RequestView): string | undefined {
  const values = view.headers.get('content-encoding');
  return values === undefined ? undefined : values.join(', ');
}

/** Phase 2: a coding the engine cannot inflate, or the header on a request without a body. */
export function checkContentEncoding(view: RequestView): ProtocolHit | null {
  const header = codingsOf(view);
  if (header === undefined) return null;
  const where = { location: 'header' as const, name: 'Content-Encoding' };
  const codings = contentCodings(header);
  if (codings.length === 0) return null;
  if (!codingsDecodable(codings)) return protocolHit('protocol.restricted_header', 1, where, `content-encoding: ${header}`);
  // On a request that announces no body the header has nothing to describe: a probe (CRS 920450).
  const announced = (view.body !== null && view.body.length > 0) || view.headers.has('transfer-encoding') || Number(view.headers.get('content-length')?.[0] ?? 0) > 0;
  return announced ? null : protocolHit('protocol.restricted_header', 1, where, `content-encoding: ${header} without a body`);
}

/** Phase 3, the one place the body is judged (the gateway inspects the head before the body arrives): a body that does not inflate. */
export function checkBodyInflates(view: RequestView): ProtocolHit | null {
  const header = codingsOf(view);
  if (header === undefined || view.body === null || view.body.length === 0) return null;
  const codings = contentCodings(header);
  if (codings.length === 0 || !codingsDecodable(codings)) return null;
  const decoded = decodeContentEncoding(view.body, header, maxBytes);
  return decoded.failed === null ? null : protocolHit('protocol.body_undecodable', 1, { location: 'raw_body' }, `${header}: ${decoded.failed}`);
}
