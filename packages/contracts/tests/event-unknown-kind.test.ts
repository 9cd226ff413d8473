import { describe, expect, it } from 'vitest';
import { renderEvent } from '../src/event-catalogue.ts';

describe('an event of a kind this build does not know', () => {
  it('reads as a sentence in each language with its parameters, never the raw kind', () => {
    const params = { ip: '203.0.113.9', count: 3 };
    const zh = renderEvent('future_module.new_thing', params, 'zh-CN').content;
    const en = renderEvent('future_module.new_thing', params, 'en-US').content;
    expect(zh).toBe('本版本无法描述的事件（可能来自其他版本）：ip: 203.0.113.9；count: 3');
    expect(en).toBe('An event this version cannot describe (it may come from another version): ip: 203.0.113.9; count: 3');
    for (const text of [zh, en]) expect(text).not.toContain('future_module');
  });

  it('without parameters is the sentence alone', () => {
    expect(renderEvent('gone.kind', {}, 'en-US').content).toBe('An event this version cannot describe (it may come from another version)');
  });

  it('a known kind is unaffected', () => {
    expect(renderEvent('process.rules_changed', { account: 'a', action: 'add', what: 'x' }, 'en-US').content).not.toContain('cannot describe');
  });
});
