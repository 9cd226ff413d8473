/**
 * ORM lookup keys (Django and the ORMs that copied its `field__lookup` syntax). A view that hands
 * request parameters to `filter(**params)` lets the client choose the lookup: `password__regex=^a`
 * or `created_by__user__password__startswith=p` read a hidden field one guess at a time, and
 * `data__has_key=is_admin` probes the shape of a JSON column. Only parameter names are read (query
 * and form names, JSON keys): a value that mentions `field__startswith` is prose about the API.
 *
 * Everything here is suspicious (strict mode), never a clear attack. What stays out, even in
 * strict: the lookups Django's own admin and django-filter put in their links, across relations
 * too (`author__country__id__exact`, `author__isnull`, `pub_date__gte`, `author__name__icontains`,
 * `username__startswith`: the last is a CRS must-pass test, 934220 test 4, as well as an attack
 * test). Flagged: a pattern match or a JSON-structure test (`__regex`, `__has_key`,
 * `__contained_by`…), which no list filter offers, and any lookup on a walk that reaches a secret
 * (`…__password__startswith`, `user__api_token__gt`).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

/** Lookups that compare a field with the value sent (Django core and contrib.postgres). */
const lookups: ReadonlySet<string> = new Set([
  'exact', 'iexact', 'contains', 'icontains', 'in', 'gt', 'gte', 'lt', 'lte', 'startswith', 'istartswith',
  'endswith', 'iendswith', 'range', 'isnull', 'regex', 'iregex', 'contained_by', 'overlap', 'has_key', 'has_keys',
  'has_any_keys',
]);

/** Lookups that test a pattern or a JSON column's structure: no list filter offers them. */
const probes: ReadonlySet<string> = new Set(['regex', 'iregex', 'has_key', 'has_keys', 'has_any_keys', 'contained_by', 'overlap']);

/** Field names that hold a secret: a lookup on one guesses it piece by piece. */
const secretField = /^(?:password|passwd|pwd|secret|token|api_?key|otp|salt|hash|password_hash|private_key|\w+_(?:token|secret|password))$/;

/** A snake_case field path: identifiers joined by `__`, no empty part (`__init__`, `__proto__` fail). */
const fieldPath = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:__[a-z][a-z0-9]*(?:_[a-z0-9]+)*)+$/i;

export function detectOrmLookup(value: string, location: InputLocation): DetectorHit | null {
  if (location !== 'query_name' && location !== 'body_name') return null;
  if (value.length > 200 || !value.includes('__')) return null;
  // A bracketed form name (`filter[user__name__icontains]`) is read part by part.
  for (const part of value.split(/[[\].]+/)) {
    if (!fieldPath.test(part)) continue;
    const segments = part.toLowerCase().split('__');
    const lookup = segments[segments.length - 1]!;
    if (!lookups.has(lookup)) continue;
    if (probes.has(lookup)) return hit('orm.probe_lookup', part);
    if (segments.slice(0, -1).some((segment) => secretField.test(segment))) return hit('orm.secret_lookup', part);
  }
  return null;
}

/** Reported as SQL injection: the ORM writes the lookup into the query's WHERE clause, so the site's SQL switch governs it. */
function hit(rule: string, evidence: string): DetectorHit {
  return { kind: 'sqli', rule, evidence: evidence.slice(0, 120), severity: 1 };
}
