import { describe, expect, it } from 'vitest';
import { websiteRuleName } from '../src/index.ts';

describe('website rule names', () => {
  it('names a rule by itself, else its nearest named parent, else its attack kind, else as it came', () => {
    expect(websiteRuleName('protocol.unparseable', 'en-US')).toBe('HTTP protocol violation (a request that cannot be parsed)');
    expect(websiteRuleName('protocol.unparseable', 'zh-CN')).toBe('HTTP 协议违规（无法解析的请求）');
    expect(websiteRuleName('protect.cc.redirect', 'en-US')).toBe('CC protection (redirect verification)');
    expect(websiteRuleName('protect.cc.later', 'zh-CN')).toBe('CC 防护');
    expect(websiteRuleName('protocol.control_char', 'en-US')).toBe('HTTP protocol violation');
    expect(websiteRuleName('sqli.tautology', 'zh-CN')).toBe('SQL 注入');
    expect(websiteRuleName('webshell_upload.engine', 'en-US')).toBe('the web shell scan of uploads');
    expect(websiteRuleName('webshell_upload.engine', 'zh-CN')).toBe('上传文件木马查杀');
    expect(websiteRuleName('webshell_upload.later', 'en-US')).toBe('web shell upload');
    expect(websiteRuleName('newer.rule', 'en-US')).toBe('newer.rule');
  });
});
