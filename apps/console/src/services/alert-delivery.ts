import nodemailer from 'nodemailer';
import {
  DeliveryError, buildAliyunSendSms, buildGatewayRequest, buildTencentSendSms, buildWecomRequest, checkAliyunReply, checkGatewayReply, checkTencentReply,
  checkWecomReply, sendHttp, sendMail, smsText, type FetchLike, type MailTransportFactory,
} from '@rampart/notify';
import type { AlertMethod } from '@rampart/contracts';
import type { Db } from '../db/database.ts';
import { alertConfig, spendSms, type AlertConfig } from './alert-settings.ts';

/** One message as the methods send it. */
export interface AlertText {
  subject: string;
  body: string;
}

/** How the console reaches the outside; tests may swap them, production uses these. */
export interface DeliveryPorts {
  fetch: FetchLike;
  createTransport: MailTransportFactory;
  now: () => number;
}

export const defaultPorts = (now: () => number): DeliveryPorts => ({
  fetch: globalThis.fetch,
  createTransport: (options) => nodemailer.createTransport(options),
  now,
});

/** Thrown when the SMS budget ("SMS remaining") is used up: nothing was sent. */
export class SmsQuotaExhausted extends DeliveryError {
  constructor() {
    super('no SMS remaining');
    this.name = 'SmsQuotaExhausted';
  }
}

/** Whether a method has everything it needs (secrets included) to send. */
export function methodReady(config: AlertConfig, method: AlertMethod): boolean {
  switch (method) {
    case 'email':
      return config.email.host !== '' && config.email.from !== '' && config.email.recipients.length > 0;
    case 'sms': {
      const { sms } = config;
      if (sms.phones.length === 0) return false;
      if (sms.provider === 'aliyun') return sms.aliyun.endpoint !== '' && sms.aliyun.access_key_id !== '' && sms.aliyun.access_key_secret !== '' && sms.aliyun.sign_name !== '' && sms.aliyun.template_code !== '' && sms.aliyun.template_param !== '';
      if (sms.provider === 'tencent') return sms.tencent.endpoint !== '' && sms.tencent.secret_id !== '' && sms.tencent.secret_key !== '' && sms.tencent.sdk_app_id !== '' && sms.tencent.sign_name !== '' && sms.tencent.template_id !== '';
      return sms.http.url !== '' && sms.http.template !== '';
    }
    case 'wechat':
      return /[?&]key=[^&]+/.test(config.wechat.webhook);
  }
}

async function sendSms(db: Db, config: AlertConfig, phones: readonly string[], text: string, ports: DeliveryPorts): Promise<void> {
  const { sms } = config;
  // Each number is one SMS off the budget; a send that would overrun it does not start.
  if (sms.remaining < phones.length) throw new SmsQuotaExhausted();
  const now = ports.now();
  if (sms.provider === 'aliyun') {
    const a = sms.aliyun;
    const request = buildAliyunSendSms(
      { endpoint: a.endpoint, region: a.region, accessKeyId: a.access_key_id, accessKeySecret: a.access_key_secret, signName: a.sign_name, templateCode: a.template_code, templateParam: a.template_param },
      phones, text, { now },
    );
    checkAliyunReply(await sendHttp(request, ports.fetch));
  } else if (sms.provider === 'tencent') {
    const t = sms.tencent;
    const request = buildTencentSendSms(
      { endpoint: t.endpoint, region: t.region, secretId: t.secret_id, secretKey: t.secret_key, sdkAppId: t.sdk_app_id, signName: t.sign_name, templateId: t.template_id },
      phones, text, { now },
    );
    checkTencentReply(await sendHttp(request, ports.fetch));
  } else {
    const h = sms.http;
    const gateway = { url: h.url, method: h.method, template: h.template, headerName: h.header_name, headerValue: h.header_value };
    for (const phone of phones) {
      checkGatewayReply(await sendHttp(buildGatewayRequest(gateway, phone, text), ports.fetch), h.url);
      spendSms(db, 1);
    }
    return;
  }
  spendSms(db, phones.length);
}

/**
 * Sends one message by one method to its configured recipients (`only`: a single recipient, for
 * sign-in codes). Rejects with a DeliveryError saying why.
 */
export async function deliver(db: Db, method: AlertMethod, text: AlertText, ports: DeliveryPorts, only?: string): Promise<void> {
  const config = alertConfig(db);
  if (!methodReady(config, method)) throw new DeliveryError('not configured');
  switch (method) {
    case 'email':
      return sendMail({ ...config.email, recipients: only ? [only] : config.email.recipients }, text.subject, text.body, ports.createTransport);
    case 'sms':
      return sendSms(db, config, only ? [only] : config.sms.phones, smsText(text.subject, text.body), ports);
    case 'wechat':
      checkWecomReply(await sendHttp(buildWecomRequest(config.wechat.webhook, `${text.subject}\n${text.body}`), ports.fetch));
  }
}
