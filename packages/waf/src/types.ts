/**
 * The website-protection engine's shapes. The engine is pure: the gateway hands it a request (and
 * later the response head), it answers a decision. Phases as coraza runs them: 1 connection and
 * request line, 2 headers, 3 body, 4 response headers.
 */

/** A request as the gateway saw it, before any decoding. */
export interface WafRequest {
  method: string;
  /** The raw request target as sent: path plus `?query`, still percent-encoded. */
  target: string;
  /** Header lines in arrival order; names as sent (compare case-insensitively). */
  headers: readonly (readonly [name: string, value: string])[];
  /** The client address after the trusted-proxy rules (the gateway resolves X-Forwarded-For). */
  clientIp: string;
  /** The body as far as the engine inspects it (the gateway streams the rest through unread). */
  body: Uint8Array | null;
  /** The body was longer than what `body` holds. */
  bodyTruncated: boolean;
  /** Milliseconds since the epoch; time-limited rules and counters read it. */
  now: number;
}

/** Where in the request a value came from. */
export type InputLocation =
  | 'path'
  | 'query_name'
  | 'query'
  | 'header'
  | 'cookie_name'
  | 'cookie'
  | 'body_name'
  | 'body'
  | 'file_name'
  | 'file_content'
  | 'xml'
  | 'raw_body';

/** One value of the request, named and placed; `value` is raw (not yet decoded). */
export interface RequestInput {
  location: InputLocation;
  /** The parameter, header, cookie or field name ('' where none: path, raw body). */
  name: string;
  value: string;
}

/** The attack classes the engine names (the spec's injection and attack tabs, issue 6); canonical list in contracts. */
export { attackKinds, type AttackKind } from '@rampart/contracts';
import type { AttackKind } from '@rampart/contracts';

/** What a detector found in one (decoded) value. */
export interface DetectorHit {
  kind: AttackKind;
  /** A stable id of the check that fired, e.g. 'sqli.tautology'. */
  rule: string;
  /** The part of the value that made the decision, short (at most 120 characters). */
  evidence: string;
  /** 1 = suspicious (strict mode blocks), 2 = clear attack (loose mode blocks too). */
  severity: 1 | 2;
}

/**
 * What a detector may know of the request beyond the value, read once per request (optional,
 * additive: detectors that need nothing ignore it).
 */
export interface DetectorContext {
  /** The Host header as sent (first one, trimmed, lower case, port kept), or null without one. */
  host: string | null;
}

/**
 * A detector looks at one value after decoding; it must be fast on benign text (it runs on every
 * parameter of every request) and must not throw. `location` lets it weigh context (a path segment
 * is not a SQL fragment the way a query value is). `name` (optional, additive) is the parameter,
 * header or field name: file inclusion weighs `?page=http://…` differently from `?q=http://…`.
 * `context` (optional, additive) carries the request's Host: a URL parameter naming another host,
 * or this host on another port, is judged against it.
 */
export type Detector = (value: string, location: InputLocation, name?: string, context?: DetectorContext) => DetectorHit | null;

/** Block mode (spec: loose or strict). */
export type BlockMode = 'loose' | 'strict';

/** The engine's answer for one request. */
export type Decision =
  | { action: 'pass' }
  | {
      action: 'block';
      /** Which settings group or detector decided, e.g. 'lists.ip_black', 'sqli.tautology'. */
      rule: string;
      kind: AttackKind | 'policy';
      location?: InputLocation;
      name?: string;
      evidence?: string;
    }
  | { action: 'challenge'; rule: string }
  /** `kind`: the detector's attack kind (absent for a settings group's record, e.g. the record keyword library). */
  | { action: 'record'; rule: string; kind?: AttackKind; evidence?: string };
