import { remoteAccessSchema, type RemoteAccess, type RemoteWindow } from '@rampart/contracts';
import { entryLines } from '../firewall/forms.ts';

/* The access form as the page edits it: addresses as one text box, windows as rows. */

export interface AccessDraft {
  ipsText: string;
  areas: string[];
  windows: RemoteWindow[];
  notify_login: boolean;
}

export function draftOf(access: RemoteAccess): AccessDraft {
  return { ipsText: access.ips.join('\n'), areas: [...access.areas], windows: access.windows.map((w) => ({ ...w, days: [...w.days] })), notify_login: access.notify_login };
}

/** The draft as the contract's body, checked by the same schema the server uses. */
export function accessOf(draft: AccessDraft) {
  return remoteAccessSchema.safeParse({ ips: entryLines(draft.ipsText).map((entry) => entry.text), areas: draft.areas, windows: draft.windows, notify_login: draft.notify_login });
}

/** A new window row: working days, office hours. */
export const newWindow = (): RemoteWindow => ({ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' });

/** The spec's warning: on, and nobody authorized (only the super whitelist gets in). */
export const nothingAuthorized = (draft: AccessDraft): boolean => entryLines(draft.ipsText).length === 0 && draft.areas.length === 0;
