import type { AlertSettingsInput, AlertSettingsView } from '@rampart/contracts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';

/**
 * The alerts form while the user edits it: lists are text (one entry per line) and number inputs
 * may be empty; `toInput` turns it into what the schema checks and the console takes.
 */
export type AlertsDraft = Omit<AlertSettingsInput, 'interval' | 'email' | 'sms'> & {
  interval: number | null;
  email: Omit<AlertSettingsInput['email'], 'port' | 'recipients'> & { port: number | null; recipients: string };
  sms: Omit<AlertSettingsInput['sms'], 'remaining' | 'phones'> & { remaining: number | null; phones: string };
};

export function toDraft(view: AlertSettingsView): AlertsDraft {
  const { stored: _stored, ...settings } = view;
  return {
    ...settings,
    email: { ...settings.email, recipients: settings.email.recipients.join('\n') },
    sms: { ...settings.sms, phones: settings.sms.phones.join('\n') },
  };
}

const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');

/** What is posted; empty numbers stay null so the schema names the field. */
export function toInput(draft: AlertsDraft): unknown {
  return {
    ...draft,
    email: { ...draft.email, recipients: lines(draft.email.recipients) },
    sms: { ...draft.sms, phones: lines(draft.sms.phones) },
  };
}

/** The error of a field or of an entry in it (`email.recipients.2` shows on the recipients box). */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  if (errors[path] !== undefined) return errors[path];
  const child = Object.keys(errors).find((k) => k.startsWith(`${path}.`) && /^\d+$/.test(k.slice(path.length + 1)));
  return child ? errors[child] : undefined;
}
