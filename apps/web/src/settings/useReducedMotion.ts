import { useSyncExternalStore } from 'react';

const query = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * Whether the operating system asks for less motion (accessibility setting). The console then shows
 * dialogs, menus and messages without their zoom and slide animations. The browser tests run with
 * it on (tests/e2e/product.ts): a click on a dialog that is still zooming in can land beside its
 * button, since the dialog's box only starts scaling after it was measured.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
