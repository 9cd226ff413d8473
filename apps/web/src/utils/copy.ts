export type CopyOutcome = 'ok' | 'unsupported' | 'failed';

/** The old way, for pages served over plain http where navigator.clipboard does not exist. */
function copyWithTextarea(text: string): CopyOutcome {
  if (typeof document.execCommand !== 'function') return 'unsupported';
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy') ? 'ok' : 'failed';
  } catch {
    return 'failed';
  } finally {
    area.remove();
  }
}

/** Copies text; the outcome maps to the spec's "browser not supported" / "copy failed, content may be empty". */
export async function copyText(text: string | null | undefined): Promise<CopyOutcome> {
  if (!text) return 'failed';
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return 'ok';
    } catch {
      return copyWithTextarea(text);
    }
  }
  return copyWithTextarea(text);
}
