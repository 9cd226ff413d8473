/**
 * Java attacks carried in parameters:
 *  - serialized objects (stream magic AC ED 00 05: hex "aced0005", base64 "rO0AB", raw bytes) and
 *    the gadget classes of ysoserial-style chains, also in JSON (@type) and XStream bodies;
 *  - Log4j JNDI lookups, after resolving the nested lookup obfuscations (lookup.ts).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { resolveLookups } from './lookup.ts';

/** Classes whose presence in a request means a deserialization gadget chain. */
const gadgetClasses = [
  'org.apache.commons.collections.functors.', 'org.apache.commons.collections4.functors.',
  'org.apache.commons.beanutils.beancomparator', 'com.sun.org.apache.xalan.internal.xsltc.trax.templatesimpl',
  'org.apache.xalan.xsltc.trax.templatesimpl', 'com.sun.rowset.jdbcrowsetimpl', 'java.rmi.server.unicastremoteobject',
  'sun.rmi.server.unicastref', 'org.springframework.beans.factory.objectfactory', 'org.codehaus.groovy.runtime.convertedclosure',
  'org.codehaus.groovy.runtime.methodclosure', 'groovy.util.expando', 'bsh.xthis', 'bsh.interpreter',
  'javax.management.badattributevalueexpexception', 'java.util.priorityqueue', 'sun.reflect.annotation.annotationinvocationhandler',
  'org.hibernate.engine.spi.typedvalue', 'com.mchange.v2.c3p0.', 'org.apache.commons.configuration.jndiconfiguration',
  'ysoserial', 'java.lang.processbuilder', 'java.lang.runtime', 'javax.script.scriptenginemanager',
  'com.sun.jndi.rmi.registry.referencewrapper', 'org.apache.tomcat.dbcp.dbcp2.basicdatasource',
  'com.alibaba.fastjson.jsonobject', 'org.apache.ibatis.datasource.jndi.jndidatasourcefactory',
];

const jndiProtocols = /^\$\{jndi:\s*(ldaps?|rmi|dns|iiop|corba|nds|nis|http|https|cobra)\s*:/;

export function detectJavaDeserialization(value: string, _location: InputLocation): DetectorHit | null {
  try {
    return detectSerialized(value);
  } catch {
    return null;
  }
}

export function detectJndi(value: string, _location: InputLocation): DetectorHit | null {
  try {
    return detectLookup(value);
  } catch {
    return null;
  }
}

function detectSerialized(value: string): DetectorHit | null {
  if (value.length < 8) return null;
  const trimmed = value.trimStart();
  if (trimmed.startsWith('rO0AB') || /^ac\s?ed\s?00\s?05/i.test(trimmed)) {
    return hit('java_deserialization', 'java.serialized_object', trimmed, 2);
  }
  if (value.charCodeAt(0) === 0xac && value.charCodeAt(1) === 0xed && value.charCodeAt(2) === 0 && value.charCodeAt(3) === 5) {
    return hit('java_deserialization', 'java.serialized_object', 'AC ED 00 05 …', 2);
  }
  for (const marker of ['rO0AB', 'aced0005', 'ACED0005']) {
    const at = value.indexOf(marker);
    // Inside a longer value: a cookie or field that carries a serialized blob after a prefix.
    if (at > 0 && /[\s"'=:,;(]$/.test(value[at - 1]!)) return hit('java_deserialization', 'java.serialized_object', value.slice(at), 2);
  }
  // Gadget names need a dot-separated package: cheap pre-filter on "org." / "java." / "com." etc.
  if (!/(?:org|com|java|javax|sun|bsh|groovy|ysoserial)\./i.test(value) && !/ysoserial/i.test(value)) return null;
  const lower = value.length > 65536 ? value.slice(0, 65536).toLowerCase() : value.toLowerCase();
  for (const cls of gadgetClasses) {
    const at = lower.indexOf(cls);
    if (at >= 0) {
      // java.lang.Runtime / ProcessBuilder are common words in Java posts: a type marker makes them a payload.
      const generic = cls === 'java.lang.runtime' || cls === 'java.lang.processbuilder' || cls === 'java.util.priorityqueue';
      const typed = /"@type"|"@class"|<java\.|class=|\bclass"/.test(lower);
      // A value that is nothing but the class name (no prose around it) is a payload too.
      const bare = !/\s/.test(value.trim());
      if (generic && !typed && !bare) continue;
      return hit('java_deserialization', 'java.gadget_class', value.slice(at), 2);
    }
  }
  return null;
}

function detectLookup(value: string): DetectorHit | null {
  const at = value.indexOf('${');
  if (at < 0) return null;
  const { text, names } = resolveLookups(value.slice(at, at + 4096));
  const lower = text.toLowerCase();
  const jndi = lower.indexOf('${jndi:');
  if (jndi >= 0) {
    const protocol = jndiProtocols.exec(lower.slice(jndi));
    return hit('jndi', protocol ? 'jndi.lookup' : 'jndi.lookup_unknown_protocol', value.slice(at), 2);
  }
  const obfuscated = names.has('lower') || names.has('upper') || names.has('::-') || names.has('');
  if (lower.includes('jndi') && obfuscated) return hit('jndi', 'jndi.obfuscated_lookup', value.slice(at), 2);
  // ${env:…} ${sys:…} ${java:…}: Log4j lookups that leak secrets into DNS names; PowerShell has ${env:X}
  // too, so alone they are only suspicious.
  for (const name of ['env', 'sys', 'java', 'ctx', 'main', 'k8s', 'docker', 'spring', 'bundle', 'log4j', 'base64']) {
    if (names.has(name)) return hit('jndi', 'jndi.log4j_lookup', value.slice(at), 1);
  }
  return null;
}

function hit(kind: 'jndi' | 'java_deserialization', rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind, rule, evidence: evidence.slice(0, 120), severity };
}
