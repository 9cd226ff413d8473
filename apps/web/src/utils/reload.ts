/** Reloads the page; a function of its own so tests can observe it (jsdom cannot reload). */
export function reloadPage(): void {
  window.location.reload();
}

export function openAddress(url: string): void {
  window.location.href = url;
}
