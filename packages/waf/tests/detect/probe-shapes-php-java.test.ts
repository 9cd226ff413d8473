/**
 * Eval probes read in strict mode only (severity 1): a PHP DNS look-up as the whole value, and a
 * Log4j lookup opened with a brace reference glued to its name. Near-misses beside each.
 */
import { describe } from 'vitest';
import { detectJndi } from '../../src/detect/java/index.ts';
import { detectPhpInjection } from '../../src/detect/php/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

describe('PHP DNS look-up probes', () => {
  checkAttacks(detectPhpInjection, 'cmdi', [
    { value: 'gethostbynamE(', location: 'body_name', severity: 1, rule: 'php.function_call' },
    { value: 'gethostbyname(', severity: 1 },
    { value: 'gethostbyname("x.attacker.example")', severity: 1 },
    { value: '@dns_get_record($h);', severity: 1 },
  ]);
  checkBenign(detectPhpInjection, [
    { value: 'gethostbyname() returns 127.0.0.1' },
    { value: 'how does gethostbyname() work in C' },
    { value: 'struct hostent *h = gethostbyname(name);', location: 'body' },
    { value: 'gethostbyname' },
    { value: 'gethostbyname(', below: 2 },
  ]);
});

describe('Log4j lookup opened with a brace reference', () => {
  checkAttacks(detectJndi, 'jndi', [
    { value: '$&lbracesomethingnotcoveredbyotherrules', location: 'body', severity: 1, rule: 'jndi.referenced_brace' },
    { value: '$&#123;env:HOME', severity: 1 },
    { value: '$&#x7B;ctx:user', severity: 1 },
  ]);
  checkBenign(detectJndi, [
    { value: '$&lbrace;name&rbrace;', location: 'body' },
    { value: 'Use $&#123;price&#125; in the template', location: 'body' },
    { value: 'Prices: $&lbrace; is how the template escapes a brace', location: 'body' },
    { value: 'Tom &amp; Jerry cost $&amp;5' },
    { value: '$&lbracesomething', below: 2 },
  ]);
});
