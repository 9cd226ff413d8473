import { cloudBundleMaxChars } from '@rampart/contracts';

/** Downloads a bundle's text; throws with a short reason (shown to the administrator) on any failure. */
export async function fetchBundle(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow', headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > cloudBundleMaxChars) {
    await response.body?.cancel();
    throw new Error(`larger than ${cloudBundleMaxChars} bytes`);
  }
  // Read by chunks so a server that lies about its length cannot fill the agent's memory.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > cloudBundleMaxChars) throw new Error(`larger than ${cloudBundleMaxChars} bytes`);
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString('utf8');
}
