import { describe, expect, it } from 'vitest';
import { defaultInputLimits, multipartTailOf } from '../src/inputs.ts';
import { MultipartTailReader, readMultipartTail, resumeOffset, type MultipartTailLimits } from '../src/parse/multipart-tail.ts';
import { parseMultipart } from '../src/parse/multipart.ts';

const boundary = '----WebKitFormBoundaryQ1';
const limits: MultipartTailLimits = { maxParts: 50, fileHead: 1024, textBudget: 64 * 1024, fileBudget: 8 * 1024 };

const text = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, fileName: string, content: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`;
const close = `--${boundary}--\r\n`;

function readInChunks(body: string, sizes: (i: number) => number, l = limits) {
  const bytes = Buffer.from(body, 'latin1');
  const reader = new MultipartTailReader(boundary, l);
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes(i));
    reader.push(bytes.subarray(at, at + size));
    at += size;
  }
  return reader.result();
}

const fields = (tailText: string) => parseMultipart(tailText, boundary, { maxParts: 100, maxFileHead: 1 << 20 }).map((p) => [p.name, p.fileName, p.value.length < 40 ? p.value : p.value.length]);

describe('multipart tail reader', () => {
  const body = file('video', 'clip.mp4', '\u0007'.repeat(20_000)) + text('title', 'Holiday in Crete') + text('note', "1' union select password from users--") + close;

  it('keeps every text field whole and a file by its head', () => {
    const tail = readInChunks(body, () => 1 << 20);
    expect(fields(tail.text)).toEqual([
      ['video', 'clip.mp4', 1024],
      ['title', null, 'Holiday in Crete'],
      ['note', null, "1' union select password from users--"],
    ]);
    expect(tail).toMatchObject({ stopped: false, endsInText: false, textParts: 2, fileParts: 1 });
  });

  it('reads the same whatever the chunks, a delimiter split across them included', () => {
    const whole = readInChunks(body, () => 1 << 20);
    for (const sizes of [() => 1, () => 3, () => boundary.length + 1, () => 700, (i: number) => (i * 7919) % 97]) {
      expect(readInChunks(body, sizes)).toEqual(whole);
    }
  });

  it('counts files and text fields, and ending inside a file is not ending in text', () => {
    const files = file('a', 'a.bin', 'x'.repeat(5000)) + file('b', 'b.bin', 'y'.repeat(10));
    const tail = readInChunks(files.slice(0, -8), () => 4096);
    expect(tail).toMatchObject({ fileParts: 2, textParts: 0, endsInText: false, stopped: false });
    expect(readInChunks(text('q', 'a'.repeat(3000)).slice(0, 1500), () => 512).endsInText).toBe(true);
  });

  it('reads parts laid out after the closing delimiter, not the epilogue text', () => {
    const tail = readInChunks(text('a', 'hello') + close + 'epilogue words\r\n' + text('q', 'after the end') + close, () => 10);
    expect(fields(tail.text)).toEqual([
      ['a', null, 'hello'],
      ['q', null, 'after the end'],
    ]);
    expect(tail.text).not.toContain('epilogue words');
  });

  it('stops when the text budget runs out, inside a field or inside headers', () => {
    const long = readInChunks(text('a', 'x'.repeat(70 * 1024)) + text('q', 'late'), () => 8192);
    expect(long.stopped).toBe(true);
    expect(long.text).not.toContain('late');
    const headers = readInChunks(`--${boundary}\r\nContent-Disposition: form-data; name="a"; x="${'y'.repeat(20 * 1024)}"\r\n\r\nv\r\n` + close, () => 4096);
    expect(headers.stopped).toBe(true);
  });

  it('stops past the most parts it reads', () => {
    const many = Array.from({ length: 60 }, (_, i) => text(`f${i}`, 'v')).join('') + close;
    const tail = readInChunks(many, () => 1000);
    expect(tail.stopped).toBe(true);
    expect(tail.textParts).toBe(50);
  });

  it('past the file budget files keep their headers only, and the text after them is still read', () => {
    const files = Array.from({ length: 20 }, (_, i) => file(`f${i}`, `photo${i}.jpg`, 'z'.repeat(2000))).join('');
    const tail = readInChunks(files + text('caption', '<script>alert(1)</script>') + close, () => 3000);
    const read = fields(tail.text);
    expect(read).toHaveLength(21);
    expect(read[0]).toEqual(['f0', 'photo0.jpg', 1024]);
    expect(read[19]).toEqual(['f19', 'photo19.jpg', '']);
    expect(read[20]).toEqual(['caption', null, '<script>alert(1)</script>']);
    expect(tail.stopped).toBe(false);
  });

  it('reads from the delimiter at a window end, even when the window cuts the delimiter', () => {
    const bytes = Buffer.from(file('f', 'a.bin', 'q'.repeat(3000)) + text('note', 'after the file') + close, 'latin1');
    const cutAt = bytes.indexOf(`--${boundary}`, 10, 'latin1') + 5;
    const tail = readMultipartTail(bytes, cutAt, boundary, limits);
    expect(fields(tail.text)).toEqual([['note', null, 'after the file']]);
  });

  it('resumes at the last delimiter inside the window, or at its end when the window holds none', () => {
    const window = Buffer.from(text('a', '1') + file('f', 'a.bin', 'q'.repeat(100)), 'latin1');
    expect(resumeOffset(window, boundary)).toBe(window.indexOf(`--${boundary}`, 5, 'latin1'));
    const inside = Buffer.from('q'.repeat(100), 'latin1');
    expect(resumeOffset(inside, boundary)).toBe(100);
  });

  it('reads a body past the window once, however many checks ask (inputs and the unread check share it)', () => {
    const limits = { ...defaultInputLimits, maxBodyBytes: 4096 };
    const bytes = Buffer.from(file('f', 'a.bin', 'q'.repeat(10_000)) + text('note', 'after the file') + close, 'latin1');
    const first = multipartTailOf(bytes, boundary, limits);
    // (The file keeps as much of its head as the file budget, the window's size, allows.)
    expect(fields(first!.text)).toEqual([['f', 'a.bin', 4096], ['note', null, 'after the file']]);
    // Another view of the same memory (as protocol/unread.ts makes) gets the same reading back.
    expect(multipartTailOf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), boundary, { ...limits })).toBe(first);
    // Other limits, or a copy of the bytes, are read afresh.
    expect(multipartTailOf(bytes, boundary, { ...limits, maxBodyBytes: 8192 })).not.toBe(first);
    expect(multipartTailOf(Buffer.from(bytes), boundary, limits)).not.toBe(first);
  });
});
