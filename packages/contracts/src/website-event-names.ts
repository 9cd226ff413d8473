import type { Language } from './i18n.ts';

type Texts = Record<Language, string>;

/*
 * Words for what the website gateway reports (website-gateway.ts: gatewayEventSchema), so its
 * events and notices read as sentences in both languages: the attack kind, the settings group or
 * rule that decided, and why an address went on the interception list. The event store keeps the
 * raw ids; these tables turn them into words when a row is read (event-catalogue.ts formats
 * `attack`, `webrule`, `webreason`). An id from a newer engine that is not here shows as itself.
 */

/** The engine's attack kinds (website.ts attackKinds). */
export const websiteAttackNames: Record<string, Texts> = {
  sqli: { 'zh-CN': 'SQL 注入', 'en-US': 'SQL injection' },
  xss: { 'zh-CN': '跨站脚本（XSS）', 'en-US': 'cross-site scripting (XSS)' },
  cmdi: { 'zh-CN': '命令注入', 'en-US': 'command injection' },
  path_traversal: { 'zh-CN': '路径穿越', 'en-US': 'path traversal' },
  file_inclusion: { 'zh-CN': '文件包含', 'en-US': 'file inclusion' },
  ssti: { 'zh-CN': '模板注入', 'en-US': 'template injection' },
  xxe: { 'zh-CN': 'XML 外部实体（XXE）', 'en-US': 'XML external entity (XXE)' },
  java_deserialization: { 'zh-CN': 'Java 反序列化', 'en-US': 'Java deserialization' },
  jndi: { 'zh-CN': 'JNDI 注入', 'en-US': 'JNDI lookup injection' },
  webshell_upload: { 'zh-CN': '网页木马上传', 'en-US': 'web shell upload' },
  crlf: { 'zh-CN': 'CRLF 注入', 'en-US': 'CRLF injection' },
  ssi: { 'zh-CN': 'SSI 注入', 'en-US': 'SSI injection' },
  ldap: { 'zh-CN': 'LDAP 注入', 'en-US': 'LDAP injection' },
  nosql: { 'zh-CN': 'NoSQL 注入', 'en-US': 'NoSQL injection' },
  mail_injection: { 'zh-CN': '邮件头注入', 'en-US': 'mail header injection' },
  graphql: { 'zh-CN': 'GraphQL 滥用', 'en-US': 'GraphQL abuse' },
  protocol: { 'zh-CN': 'HTTP 协议违规', 'en-US': 'HTTP protocol violation' },
  php: { 'zh-CN': 'PHP 代码注入', 'en-US': 'PHP code injection' },
  node: { 'zh-CN': 'Node.js 代码注入', 'en-US': 'Node.js code injection' },
};

/** Rules of the settings groups, by the id the engine reports (`<group>.<rule>`, packages/waf/src/policy). */
const ruleNames: Record<string, Texts> = {
  'lists.ip_black': { 'zh-CN': 'IP/地区黑名单', 'en-US': 'the IP and area blacklist' },
  'lists.url_black': { 'zh-CN': 'URL 黑名单', 'en-US': 'the URL blacklist' },
  'lists.ua_black': { 'zh-CN': 'User-Agent 黑名单', 'en-US': 'the user-agent blacklist' },
  'lists.referer_black': { 'zh-CN': '来源黑名单', 'en-US': 'the referer blacklist' },
  'lists.malicious': { 'zh-CN': '恶意 IP 黑名单', 'en-US': 'the malicious-IP blacklist' },
  'lists.intercept': { 'zh-CN': '拦截列表', 'en-US': 'the interception list' },
  'lists.fake_spider': { 'zh-CN': '伪造蜘蛛检测', 'en-US': 'the fake-spider check' },
  'protect.cc': { 'zh-CN': 'CC 防护', 'en-US': 'CC protection' },
  'protect.cc.redirect': { 'zh-CN': 'CC 防护（跳转验证）', 'en-US': 'CC protection (redirect verification)' },
  'protect.cc.click': { 'zh-CN': 'CC 防护（点击验证）', 'en-US': 'CC protection (click verification)' },
  'protect.scan_404': { 'zh-CN': '404 扫描防护', 'en-US': '404 scan protection' },
  'protect.hotlink': { 'zh-CN': '防盗链', 'en-US': 'hotlink protection' },
  'protect.time_limit': { 'zh-CN': '限时访问', 'en-US': 'time-limited access' },
  'protect.authorization': { 'zh-CN': '授权密码验证', 'en-US': 'the authorization password' },
  'request.method': { 'zh-CN': '禁止的请求方式', 'en-US': 'the denied request methods' },
  'request.url_length': { 'zh-CN': 'URL 长度限制', 'en-US': 'the URL length limit' },
  'request.header_length': { 'zh-CN': '请求头长度限制', 'en-US': 'the header length limit' },
  'request.post_size': { 'zh-CN': 'POST 大小限制', 'en-US': 'the POST size limit' },
  'request.header_rule': { 'zh-CN': 'HTTP 头限制', 'en-US': 'an HTTP header limit' },
  'request.file_type': { 'zh-CN': '文件类型限制', 'en-US': 'the file type rule' },
  'request.upload_type': { 'zh-CN': '上传类型限制', 'en-US': 'the upload type rule' },
  'sql.keywords.block': { 'zh-CN': '关键字拦截库', 'en-US': 'the block keyword library' },
  'sql.keywords.record': { 'zh-CN': '关键字记录库', 'en-US': 'the record keyword library' },
  // Not a settings group: the web-shell engine's scan of an uploaded file (apps/gateway/src/upload-scan.ts).
  'webshell_upload.engine': { 'zh-CN': '上传文件木马查杀', 'en-US': 'the web shell scan of uploads' },
  // Not a settings group: the gateway's refusal of a request its HTTP parser cannot read (apps/gateway/src/unparseable-request.ts).
  'protocol.unparseable': { 'zh-CN': 'HTTP 协议违规（无法解析的请求）', 'en-US': 'HTTP protocol violation (a request that cannot be parsed)' },
};

/** The settings groups (tabs), for a rule of a group that the table above does not name. */
const groupNames: Record<string, Texts> = {
  base: { 'zh-CN': '基础设置', 'en-US': 'the base settings' },
  request: { 'zh-CN': '请求限制', 'en-US': 'the request limits' },
  protect: { 'zh-CN': '访问防护', 'en-US': 'the access protection' },
  sql: { 'zh-CN': '注入防护', 'en-US': 'the injection settings' },
  attack: { 'zh-CN': '攻击防护', 'en-US': 'the attack settings' },
  lists: { 'zh-CN': '黑白名单', 'en-US': 'the web lists' },
};

/**
 * A rule id in words: the rule itself, else its nearest named parent (`protect.cc.x` → CC
 * protection), else the attack kind a detector rule starts with (`sqli.tautology` → SQL
 * injection), else its settings group, else the id as it came.
 */
export function websiteRuleName(rule: string, lang: Language): string {
  const parts = rule.split('.');
  for (let n = parts.length; n >= 2; n--) {
    const named = ruleNames[parts.slice(0, n).join('.')];
    if (named) return named[lang];
  }
  const head = parts[0] ?? '';
  return websiteAttackNames[head]?.[lang] ?? groupNames[head]?.[lang] ?? rule;
}

/** Why the website protection put an address on its interception list (website-lists.ts websiteInterceptReasons). */
export const websiteInterceptReasonNames: Record<string, Texts> = {
  cc: { 'zh-CN': 'CC 攻击', 'en-US': 'CC attack' },
  scan_404: { 'zh-CN': '404 扫描', 'en-US': '404 scan' },
  attack: { 'zh-CN': '多次攻击', 'en-US': 'repeated attacks' },
  fake_spider: { 'zh-CN': '伪造搜索引擎蜘蛛', 'en-US': 'fake search engine spider' },
  manual: { 'zh-CN': '手动拦截', 'en-US': 'blocked by hand' },
};
