import type { AttackKind, Detector } from '../types.ts';
import { detectSqli } from './sqli/index.ts';
import { detectXss } from './xss/index.ts';
import { detectCmdi } from './cmdi/index.ts';
import { detectCrlf } from './crlf/index.ts';
import { detectFileInclusion } from './inclusion/index.ts';
import { detectGraphql } from './graphql/index.ts';
import { detectJavaDeserialization, detectJndi } from './java/index.ts';
import { detectLdap } from './ldap/index.ts';
import { detectMailInjection } from './mail/index.ts';
import { detectNodeInjection } from './node/index.ts';
import { detectNosql } from './nosql/index.ts';
import { detectOrmLookup } from './orm/index.ts';
import { detectPhpInjection } from './php/index.ts';
import { detectSsi } from './ssi/index.ts';
import { detectSsrf } from './ssrf/index.ts';
import { detectSsti } from './ssti/index.ts';
import { detectPathTraversal } from './traversal/index.ts';
import { detectWebshell } from './webshell/index.ts';
import { detectXxe } from './xxe/index.ts';

/** A detector and its attack kind (a kind may have several); the pipeline runs those whose kind is enabled, in this order. */
export interface DetectorEntry {
  kind: AttackKind;
  detector: Detector;
}

/** The registry: add a detector with one line (its kind and function). */
export const detectors: readonly DetectorEntry[] = [
  { kind: 'sqli', detector: detectSqli },
  { kind: 'xss', detector: detectXss },
  { kind: 'cmdi', detector: detectCmdi },
  { kind: 'cmdi', detector: detectPhpInjection },
  { kind: 'cmdi', detector: detectNodeInjection },
  { kind: 'path_traversal', detector: detectPathTraversal },
  { kind: 'file_inclusion', detector: detectFileInclusion },
  { kind: 'file_inclusion', detector: detectSsrf },
  { kind: 'ssti', detector: detectSsti },
  { kind: 'xxe', detector: detectXxe },
  { kind: 'java_deserialization', detector: detectJavaDeserialization },
  { kind: 'jndi', detector: detectJndi },
  { kind: 'webshell_upload', detector: detectWebshell },
  { kind: 'crlf', detector: detectCrlf },
  { kind: 'ssi', detector: detectSsi },
  { kind: 'ldap', detector: detectLdap },
  { kind: 'nosql', detector: detectNosql },
  { kind: 'sqli', detector: detectOrmLookup },
  { kind: 'mail_injection', detector: detectMailInjection },
  { kind: 'graphql', detector: detectGraphql },
];
