/**
 * Java attacks carried in parameters:
 *  - serialized objects (stream magic AC ED 00 05: hex "aced0005", base64 "rO0AB", raw bytes) and
 *    the gadget classes of ysoserial-style chains, also in JSON (@type) and XStream bodies;
 *  - Java class names where they are code or the whole value (name-context.ts, class-names.ts), and
 *    gadget names inside base64 fragments (base64-fragments.ts);
 *  - Log4j JNDI lookups, after resolving the nested lookup obfuscations (lookup.ts).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { decodesToJson, findBase64Gadget } from './base64-fragments.ts';
import { resolveLookups } from './lookup.ts';
import { javaNames } from './class-names.ts';
import { judgeJavaNames } from './name-context.ts';
import { findSerializedStream } from './serialized.ts';

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

export function detectJavaDeserialization(value: string, location: InputLocation, name = ''): DetectorHit | null {
  try {
    // An XML body is also read item by item (location 'xml'): its raw text adds only element and
    // attribute names, which name the document's vocabulary, not a payload (CRS agrees: XML names pass).
    const xmlRaw = location === 'raw_body' && value.trimStart().startsWith('<');
    if (xmlRaw) return detectSerialized(value, name, false, true, true);
    // Names are read once: the gadget list below only needs a look when a chain has a Java root.
    // The head of a long value: payloads are short, documents long (and judged suspicious at most).
    const head = value.length > 16384 ? value.slice(0, 16384) : value;
    const read = mayNameJava.test(head) ? javaNames(head) : { names: [], rooted: false };
    return detectSerialized(value, name, true, read.rooted) ?? judgeJavaNames(head, read.names, location) ?? detectBase64Gadget(value, location);
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

/**
 * One pass before the chain reader: a Java root package or a gadget or exec word somewhere (prose,
 * URLs and ids, most of the traffic, have none of them).
 */
const mayNameJava = /(?:java|javax|jdk|sun|com|org|ognl|bsh|groovy|class)\.|runtime|processbuilder|transformer|closure|factory|impl\b|classloader|scriptengine|xmldecoder/i;

function detectSerialized(value: string, name: string, streams: boolean, rooted: boolean, xml = false): DetectorHit | null {
  const stream = streams ? findSerializedStream(value, name) : null;
  if (stream) {
    // JSF keeps its view state serialized in the page when the application says so: an unsigned
    // ViewState is still the attack surface, but the application sent it; suspicious only.
    return hit('java_deserialization', stream.rule, value.slice(stream.at), stream.expectedThere ? 1 : 2);
  }
  // Gadget names need a dot-separated Java package (javaNames saw one) or ysoserial's name.
  if (!rooted && !/ysoserial/i.test(value)) return null;
  const lower = value.length > 65536 ? value.slice(0, 65536).toLowerCase() : value.toLowerCase();
  for (const cls of gadgetClasses) {
    const at = lower.indexOf(cls);
    if (at >= 0) {
      // java.lang.Runtime / ProcessBuilder are common words in Java posts: a type marker makes them a payload.
      const generic = cls === 'java.lang.runtime' || cls === 'java.lang.processbuilder' || cls === 'java.util.priorityqueue';
      // In an XML body the element must be an object XStream would build (`<java.lang.ProcessBuilder>
      // <command>…`): an element holding only text or attributes is a name in the document's vocabulary.
      const typed = xml ? /class=/.test(lower) || elementWithChildren(lower, at) : /"@type"|"@class"|<java\.|class=|\bclass"/.test(lower);
      // A value that is nothing but the class name (no prose around it) is a payload too.
      const bare = !/\s/.test(value.trim());
      if (generic && !typed && !bare) continue;
      return hit('java_deserialization', 'java.gadget_class', value.slice(at), 2);
    }
  }
  return null;
}

/** The element opened right before `at` (`<name …>`) holds a child element. */
function elementWithChildren(lower: string, at: number): boolean {
  if (lower[at - 1] !== '<') return false;
  const close = lower.indexOf('>', at);
  if (close < 0 || lower[close - 1] === '/') return false;
  let next = close + 1;
  while (next < lower.length && lower.charCodeAt(next) <= 32) next++;
  return lower[next] === '<' && lower[next + 1] !== '/';
}

function detectBase64Gadget(value: string, location: InputLocation): DetectorHit | null {
  // Uploaded files are binary more often than not: base64-looking runs there are chance.
  if (location === 'file_content' || value.length < 8) return null;
  const found = findBase64Gadget(value);
  if (!found || decodesToJson(found.run)) return null;
  // Base64 of readable text is a config or a post mentioning the name; beside binary it is a stream.
  return hit('java_deserialization', 'java.base64_gadget', found.run, found.readable ? 1 : 2);
}

/**
 * `$&lbrace;jndi:…}`: the lookup's brace written as an HTML reference (named, any case, or numeric),
 * for an application that unescapes markup before it logs. Nothing but a lookup puts a brace
 * reference right after a `$`.
 */
const referencedBrace = /\$&(?:lbrace|lcub|#0*123|#x0*7b);?/gi;

function detectLookup(raw: string): DetectorHit | null {
  const value = raw.includes('$&') ? raw.replace(referencedBrace, '${') : raw;
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
  return value === raw ? null : referencedOpener(raw);
}

/**
 * `$&lbracesomething…`, `$&#123;x`: a lookup opened with a brace reference and a name glued to it,
 * whatever the name (the payload after the opener varies, the disguise of the opener does not).
 * Suspicious only (strict mode). Text that escapes braces as references escapes the closing one
 * too (`$&lbrace;name&rbrace;`, a template quoted in an escaped post) and passes, as does a
 * reference followed by a blank (`$&lbrace; is how…`).
 */
const referencedOpener = (raw: string): DetectorHit | null => {
  const m = /\$&(?:lbrace|lcub|#0*123|#x0*7b);?[A-Za-z_:]/i.exec(raw);
  if (!m || /&(?:rbrace|rcub|#0*125|#x0*7d);?/i.test(raw)) return null;
  return hit('jndi', 'jndi.referenced_brace', raw.slice(m.index), 1);
};

function hit(kind: 'jndi' | 'java_deserialization', rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind, rule, evidence: evidence.slice(0, 120), severity };
}
