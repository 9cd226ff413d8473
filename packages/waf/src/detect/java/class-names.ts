/**
 * Java class and package names in a value, read as Java reads them: dotted chains of identifiers
 * (`java.lang.Runtime`, `org.apache.commons.collections.functors.InvokerTransformer`,
 * `ProcessBuilder.evil.clonetransformer`). Each chain is classified by what the named code can do:
 *  - `gadget`: a deserialization gadget (commons-collections transformers and factories, xalan's
 *    TemplatesImpl, Spring's XML application contexts): named next to Java, it is a payload;
 *  - `exec`: runs processes, scripts or classes (Runtime, ProcessBuilder, ScriptEngineManager,
 *    ClassLoader, XMLDecoder, reflection) — named in a Java package, it is a payload;
 *  - `capability`: reaches files, streams, the JVM or an OGNL/Struts internal (java.io.*, java.lang.System,
 *    java.lang.Class, com.opensymphony.xwork2, com.sun.org.apache, org.omg.CORBA);
 *  - `inert`: plain Java types and well-known library packages (java.lang.String, org.apache.commons),
 *    which OGNL payloads use as building blocks but which are ordinary on their own.
 * A scanner, not a regular expression: one pass over the value, bounded in chains and length.
 */

export type ClassRisk = 'gadget' | 'exec' | 'capability' | 'inert';

export interface JavaName {
  /** The chain as written. */
  text: string;
  /** Its identifiers, lower case. */
  segments: string[];
  start: number;
  end: number;
  risk: ClassRisk;
}

/** Simple names of gadget classes: no prose, no ordinary application uses them next to Java names. */
const gadgetSegments = new Set([
  'invokertransformer', 'instantiatetransformer', 'clonetransformer', 'chainedtransformer', 'constanttransformer',
  'forclosure', 'whileclosure', 'instantiatefactory', 'prototypeclonefactory', 'prototypeserializationfactory',
  'lazymap', 'transformedmap', 'templatesimpl', 'jdbcrowsetimpl', 'annotationinvocationhandler', 'beancomparator',
  'filesystemxmlapplicationcontext', 'classpathxmlapplicationcontext', 'unicastref', 'unicastremoteobject',
  'convertedclosure', 'methodclosure', 'badattributevalueexpexception', 'jndidatasourcefactory', 'jndiconfiguration',
]);

/** Simple names of classes and members that run processes, scripts or foreign classes. */
const execSegments = new Set([
  'runtime', 'getruntime', 'processbuilder', 'processimpl', 'unixprocess', 'scriptenginemanager', 'scriptengine',
  'classloader', 'urlclassloader', 'defineclass', 'xmldecoder', 'methodutils', 'nashorn', 'forname', 'getmethod',
  'getdeclaredmethod', 'newinstance', 'unsafe', 'jshell', 'elprocessor', 'expressionfactory',
]);

/** Package prefixes (lower case, dot-terminated) whose classes reach files, streams or the JVM. */
const capabilityPrefixes = [
  'java.io.', 'java.nio.file.', 'java.nio.channels.', 'java.lang.reflect.', 'java.lang.invoke.', 'java.lang.system.',
  'java.lang.class.', 'java.lang.process.', 'java.lang.thread.', 'java.beans.', 'java.rmi.', 'javax.script.',
  'javax.naming.', 'javax.management.', 'com.sun.org.apache.', 'com.sun.jndi.', 'com.sun.rowset.', 'sun.misc.',
  'sun.reflect.', 'jdk.nashorn.', 'com.opensymphony.xwork2.', 'org.apache.struts2.', 'ognl.', 'org.omg.corba.',
  'org.springframework.context.support.', 'com.bea.core.repackaged.', 'bsh.', 'groovy.lang.', 'org.codehaus.groovy.runtime.',
];

/** Roots a qualified Java name starts with. */
const javaRoots = new Set(['java', 'javax', 'jdk', 'sun', 'com', 'org', 'ognl', 'bsh', 'groovy']);

const maxChains = 64;

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

export interface JavaNames {
  names: JavaName[];
  /** Some chain starts with a Java root package (java., com., org., sun.…), classified or not. */
  rooted: boolean;
}

/** The dotted chains of two or more identifiers in `value` (at most `maxChains` classified ones). */
export function javaNames(value: string): JavaNames {
  const out: JavaName[] = [];
  let rooted = false;
  let i = 0;
  const n = value.length;
  while (i < n && out.length < maxChains) {
    // Find a '.' between identifier characters: the cheap anchor of every chain.
    const dot = value.indexOf('.', i);
    if (dot < 0) break;
    if (dot === 0 || !isIdentChar(value.charCodeAt(dot - 1)) || !isIdentChar(value.charCodeAt(dot + 1))) {
      i = dot + 1;
      continue;
    }
    let start = dot;
    while (start > 0 && isIdentChar(value.charCodeAt(start - 1))) start--;
    let end = dot + 1;
    for (;;) {
      while (end < n && isIdentChar(value.charCodeAt(end))) end++;
      if (end + 1 < n && value.charCodeAt(end) === 46 && isIdentChar(value.charCodeAt(end + 1))) end++;
      else break;
    }
    const text = value.slice(start, end);
    const segments = text.toLowerCase().split('.');
    if (javaRoots.has(segments[0]!)) rooted = true;
    const risk = classify(segments);
    if (risk) out.push({ text, segments, start, end, risk });
    i = end;
  }
  return { names: out, rooted };
}

/** The chain's risk, or null when it names nothing Java (a host name, a file name, a version). */
export function classify(segments: readonly string[]): ClassRisk | null {
  const first = segments[0]!;
  const rooted = javaRoots.has(first);
  let gadget = false;
  let exec = false;
  for (const s of segments) {
    if (gadgetSegments.has(s)) gadget = true;
    else if (execSegments.has(s)) exec = true;
  }
  // Most dotted text is host names, file names and abbreviations: nothing Java in it.
  if (!rooted && !gadget && !exec) return null;
  // A gadget name is a payload with any Java context: a root package, an exec class or its own
  // package beside it ("www.forclosure.com" is a misspelt host name, not commons-collections).
  if (gadget && (rooted || exec || segments.includes('functors') || segments.includes('collections'))) return 'gadget';
  // Spring4Shell and Struts' class-loader binding: class.module.classLoader…, class.classLoader….
  if (first === 'class' && segments.some((s) => s === 'classloader' || s === 'protectiondomain')) return 'exec';
  if (!rooted) return null;
  // "java.lang.Runtime", "java.evil.runtime", "java.ProcessBuilder": an exec class under a Java root.
  // Under com./org. roots only the Java packages count ("com.example.runtime" is an app's own name).
  if (exec && (first === 'java' || first === 'javax' || first === 'jdk' || first === 'sun')) return 'exec';
  const dotted = segments.join('.') + '.';
  const capability = capabilityPrefixes.some((p) => dotted.startsWith(p));
  if (capability) return exec ? 'exec' : 'capability';
  // Bare package names that only Struts internals and JDK-internal xalan live under.
  if (dotted === 'com.sun.org.apache.' || dotted === 'org.omg.corba.' || dotted === 'com.opensymphony.xwork2.') return 'capability';
  if (first === 'java' && segments.length >= 3 && (segments[1] === 'lang' || segments[1] === 'util' || segments[1] === 'net')) return 'inert';
  if (first === 'org' && segments[1] === 'apache' && segments[2] === 'commons') return 'inert';
  return null;
}
