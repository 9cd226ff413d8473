import { describe, expect, it } from 'vitest';
import { claimedSpider, verifySpiderDns } from '../../src/policy/index.ts';

describe('spider verification (pure halves)', () => {
  it('recognises the claimed engine among the enabled ones', () => {
    expect(claimedSpider(['google', 'baidu'], 'Mozilla/5.0 (compatible; Baiduspider/2.0)')).toBe('baidu');
    expect(claimedSpider(['google'], 'Mozilla/5.0 (compatible; Baiduspider/2.0)')).toBeNull();
    expect(claimedSpider(['google'], '')).toBeNull();
  });

  it('needs the reverse name under the engine domain AND the forward lookup back to the address', () => {
    expect(verifySpiderDns('google', '66.249.66.1', ['crawl-66-249-66-1.googlebot.com.'], ['66.249.66.1'])).toBe('genuine');
    expect(verifySpiderDns('google', '66.249.66.1', ['crawl.googlebot.com.evil.example'], ['66.249.66.1'])).toBe('fake');
    expect(verifySpiderDns('google', '66.249.66.1', ['fakegooglebot.com'], ['66.249.66.1'])).toBe('fake');
    expect(verifySpiderDns('google', '66.249.66.1', ['crawl.googlebot.com'], ['66.249.66.2'])).toBe('fake');
    expect(verifySpiderDns('baidu', '220.181.108.1', [], [])).toBe('fake');
  });
});
