import type { ShortcutInput, ShortcutList, ShortcutSaved, ShortcutSendResult, ShortcutTestResult } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The shortcut tab's calls (/system/shortcut…). Shapes are in contracts (shortcuts.ts). */

export const shortcutsKey = ['system', 'shortcut'] as const;

export const fetchShortcuts = () => get<ShortcutList>('/system/shortcut');
/** Adds (no id) or edits; an add answers the link once. */
export const saveShortcut = (input: ShortcutInput) => post<ShortcutSaved>('/system/shortcut', input);
/** A new link; the old one stops working. */
export const reissueShortcut = (id: number) => post<ShortcutSaved>('/system/shortcut/reissue', { id });
export const deleteShortcut = (id: number) => post<{ removed: number }>('/system/shortcut/delete', { ids: [id] });
/** The dry check: the answer's message says what running the link now would do. */
export const testShortcut = (id: number) => post<ShortcutTestResult>('/system/shortcut/test', { id });

/** Sends a new link by the notification service; the console builds it on the address this page is opened at. */
export const sendShortcutLink = (id: number) => post<ShortcutSendResult>('/system/shortcut/send', { id, origin: window.location.origin });

/** The full address of a link path, on the address this console is opened at. */
export const linkUrl = (path: string) => `${window.location.origin}${path}`;
