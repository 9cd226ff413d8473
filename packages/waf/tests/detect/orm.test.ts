/**
 * ORM lookup keys (detect/orm): a pattern or JSON-structure lookup, or any lookup on a walk that
 * reaches a secret field, in a parameter name is suspicious (strict mode blocks); the lookups
 * Django's admin and django-filter put in their links, across relations too, and any lookup
 * written in a value, pass.
 */
import { describe, expect, it } from 'vitest';
import { detectOrmLookup } from '../../src/detect/orm/index.ts';
import { inspect } from '../../src/inspect.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

describe('ORM lookup keys in parameter names', () => {
  checkAttacks(
    detectOrmLookup,
    'sqli',
    [
      { value: 'data__has_key', severity: 1, rule: 'orm.probe_lookup' },
      { value: 'user__metadata__has_keys', severity: 1, rule: 'orm.probe_lookup' },
      { value: 'roles__contained_by', location: 'body_name', severity: 1 },
      { value: 'password__regex', severity: 1 },
      { value: 'filter[email__iregex]', severity: 1, rule: 'orm.probe_lookup' },
      { value: 'created_by__departments__employees__user__password__startswith', location: 'body_name', severity: 1, rule: 'orm.secret_lookup' },
      { value: 'owner__api_token__gt', severity: 1, rule: 'orm.secret_lookup' },
      { value: 'user__reset_token__startswith', severity: 1, rule: 'orm.secret_lookup' },
    ],
    'query_name',
  );
  checkBenign(
    detectOrmLookup,
    [
      // what Django's admin list filters and django-filter links carry
      { value: 'author__country__id__exact' },
      { value: 'author__isnull' },
      { value: 'pub_date__gte' },
      { value: 'author__name__icontains' },
      { value: 'price__lte' },
      { value: 'username__startswith' },
      { value: 'name__exact', location: 'body_name' },
      { value: 'city__in', location: 'body_name' },
      { value: 'created__year__gte' },
      // a secret-looking name with no lookup after it
      { value: 'password__confirm', location: 'body_name' },
      // double underscores that are not lookups
      { value: '__proto__' },
      { value: '__init__' },
      { value: 'wp-block-button__link' },
      { value: 'block__element__modifier' },
      { value: 'attributes__values', location: 'body_name' },
      // the syntax named in a value: documentation, a comment, a search
      { value: 'data__has_key', location: 'query' },
      { value: 'use field__regex for filtering', location: 'body' },
      { value: 'password__regex', location: 'path' },
    ],
    'query_name',
  );
});

describe('an ORM lookup recorded in loose mode', () => {
  it('names its attack kind, so the event log reads SQL injection rather than the rule id', () => {
    const request = { method: 'GET', target: '/users?owner__api_token__gt=a', headers: [['Host', 'shop.example']] as [string, string][], clientIp: '203.0.113.5', body: null, bodyTruncated: false, now: 0 };
    expect(inspect(request, { mode: 'loose' })).toEqual({ action: 'record', rule: 'orm.secret_lookup', kind: 'sqli', evidence: 'owner__api_token__gt' });
    expect(inspect(request, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'orm.secret_lookup', kind: 'sqli' });
  });
});
