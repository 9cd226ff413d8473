import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../src/protocol/line-splitter.ts';

describe('LineSplitter', () => {
  it('joins lines split across chunks and splits several lines in one chunk', () => {
    const splitter = new LineSplitter(100);
    expect(splitter.push(Buffer.from('{"a":')).lines).toEqual([]);
    const { lines, overflow } = splitter.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    expect(lines.map(String)).toEqual(['{"a":1}', '{"b":2}']);
    expect(overflow).toBe(false);
    expect(splitter.push(Buffer.from(':3}\n')).lines.map(String)).toEqual(['{"c":3}']);
  });

  it('accepts a line of exactly the limit and refuses one byte more, finished or not', () => {
    expect(new LineSplitter(4).push(Buffer.from('abcd\n'))).toMatchObject({ overflow: false });
    expect(new LineSplitter(4).push(Buffer.from('abcde\n')).overflow).toBe(true);
    const unfinished = new LineSplitter(4);
    expect(unfinished.push(Buffer.from('ab')).overflow).toBe(false);
    expect(unfinished.push(Buffer.from('cde')).overflow).toBe(true);
  });

  it('hands over the complete lines that came before an overflow', () => {
    const { lines, overflow } = new LineSplitter(4).push(Buffer.from('ok\nwaytoolong'));
    expect(lines.map(String)).toEqual(['ok']);
    expect(overflow).toBe(true);
  });
});
