import { DeliveryError } from '@rampart/notify';
import type { ConsoleContext } from '../context.ts';
import { deliver, defaultPorts, methodReady } from './alert-delivery.ts';
import { alertConfig } from './alert-settings.ts';

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

export function maskPhone(phone: string): string {
  return phone.length <= 7 ? `${phone.slice(0, 2)}****` : `${phone.slice(0, phone.length - 8)}****${phone.slice(-4)}`;
}

export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/**
 * Built from the alert settings (system alerts tab). Choice: every method that is fully configured
 * offers its recipients, whether or not the alert service is on or the method is chosen for
 * alerts — sign-in codes must not depend on alerts being wanted. The WeCom robot posts to one
 * group, so it is one receiving object. Ids are `<channel>:<index>`, stable while the lists are.
 */
export function verificationChannels(ctx: ConsoleContext): VerificationChannels {
  const objects = (): (ReceivingObject & { to: string | undefined })[] => {
    const config = alertConfig(ctx.db);
    const out: (ReceivingObject & { to: string | undefined })[] = [];
    if (methodReady(config, 'sms')) config.sms.phones.forEach((p, i) => out.push({ id: `sms:${i}`, channel: 'sms', masked: maskPhone(p), to: p }));
    if (methodReady(config, 'wechat')) out.push({ id: 'wechat:0', channel: 'wechat', masked: 'WeCom', to: undefined });
    if (methodReady(config, 'email')) config.email.recipients.forEach((r, i) => out.push({ id: `email:${i}`, channel: 'email', masked: maskEmail(r), to: r }));
    return out;
  };
  return {
    list: () => objects().map(({ id, channel, masked }) => ({ id, channel, masked })),
    async send(id, text) {
      const target = objects().find((o) => o.id === id);
      if (!target) throw new DeliveryError('no such receiving object');
      await deliver(ctx.db, target.channel, text, defaultPorts(ctx.now), target.to);
    },
  };
}
