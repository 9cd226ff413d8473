import type { ConsoleContext } from '../context.ts';

/** One configured recipient a sign-in code can go to, shown masked (138****1234, a***@example.com). */
export interface ReceivingObject {
  id: string;
  channel: 'sms' | 'wechat' | 'email';
  masked: string;
}

/** The notification methods as a way to deliver sign-in codes. */
export interface VerificationChannels {
  list(): ReceivingObject[];
  /** Sends now, outside the alert interval and queue; rejects when delivery fails. */
  send(id: string, text: { subject: string; body: string }): Promise<void>;
}

/** Built from the alert settings (system alerts tab). */
export function verificationChannels(_ctx: ConsoleContext): VerificationChannels {
  return {
    list: () => [],
    send: async () => {
      throw new Error('no notification method');
    },
  };
}
