import { describe, expect, it } from 'vitest';
import { streamMultipart, type WafRequest } from '@rampart/waf';
import { judgedUpload, uploadRefused } from '../src/upload-tail.ts';
import type { RenderedResponse } from '../src/block-response.ts';

// The hold-back that keeps an origin from having a refused upload whole, without sockets: the
// generator's output is what the gateway forwards upstream.

const boundary = 'tailBoundary9';
const part = (name: string, value: string, fileName?: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n\r\n${value}\r\n`;
const body = Buffer.from(part('video', 'v'.repeat(50_000), 'clip.mp4') + part('title', 'a title after the window') + `--${boundary}--\r\n`);
const windowSize = 4096;
const request: WafRequest = {
  method: 'POST',
  target: '/upload',
  headers: [['Host', 'shop.example'], ['Content-Type', `multipart/form-data; boundary=${boundary}`]],
  clientIp: '192.0.2.7',
  body: body.subarray(0, windowSize),
  bodyTruncated: true,
  now: 0,
};
const page: RenderedResponse = { status: 403, headers: {}, body: 'refused' };

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('judgedUpload', () => {
  it('forwards every chunk but the last before the judgment, the last one only after it passes', async () => {
    const streamed = streamMultipart(request, request.body!)!;
    const forwarded: Buffer[] = [];
    let judgedWith: WafRequest | null = null;
    let forwardedWhenJudged = -1;
    for await (const chunk of judgedUpload(chunksOf(body, 8192), streamed, async (r) => {
      judgedWith = r;
      forwardedWhenJudged = Buffer.concat(forwarded).length;
      return null;
    })) forwarded.push(chunk);
    expect(Buffer.concat(forwarded).equals(body)).toBe(true);
    expect(forwardedWhenJudged).toBe(body.length - (body.length % 8192 || 8192));
    expect(Buffer.from(judgedWith!.body!).toString('latin1')).toContain('a title after the window');
  });

  it('fails the stream with the refusal and never forwards the last chunk', async () => {
    const streamed = streamMultipart(request, request.body!)!;
    const forwarded: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of judgedUpload(chunksOf(body, 8192), streamed, async () => page)) forwarded.push(chunk);
    })();
    await expect(reading).rejects.toMatchObject({ code: uploadRefused, refusal: page });
    expect(Buffer.concat(forwarded).length).toBeLessThan(body.length);
  });

  it('does not judge again when past the window there is only the rest of the file the window cut', async () => {
    const single = Buffer.from(part('video', 'v'.repeat(50_000), 'clip.mp4') + `--${boundary}--\r\n`);
    const streamed = streamMultipart({ ...request, body: single.subarray(0, windowSize) }, single.subarray(0, windowSize))!;
    let judged = false;
    const forwarded: Buffer[] = [];
    for await (const chunk of judgedUpload(chunksOf(single, 1000), streamed, async () => ((judged = true), null))) forwarded.push(chunk);
    expect(judged).toBe(false);
    expect(Buffer.concat(forwarded).equals(single)).toBe(true);
  });
});
