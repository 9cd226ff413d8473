import { storageKeys } from './keys.ts';

/*
 * The access token. "Remember me" keeps it in localStorage (survives closing the browser);
 * otherwise it lives in sessionStorage and ends with the tab.
 */

export function getToken(): string | null {
  return localStorage.getItem(storageKeys.token) ?? sessionStorage.getItem(storageKeys.token);
}

export function setToken(token: string, remember: boolean): void {
  clearToken();
  (remember ? localStorage : sessionStorage).setItem(storageKeys.token, token);
}

export function clearToken(): void {
  localStorage.removeItem(storageKeys.token);
  sessionStorage.removeItem(storageKeys.token);
}

export function hasToken(): boolean {
  return getToken() !== null;
}
