export { DeliveryError, sendHttp, hostOf, defaultTimeoutMs, type FetchLike, type HttpReply, type HttpRequest } from './http.ts';
export {
  percentEncode, canonicalizedQuery, aliyunStringToSign, aliyunSignature, aliyunTimestamp, buildAliyunSendSms, checkAliyunReply,
  type AliyunSmsConfig,
} from './aliyun.ts';
export { tc3Sign, tc3CanonicalRequest, tencentContentType, e164, buildTencentSendSms, checkTencentReply, type Tc3Input, type TencentSmsConfig } from './tencent.ts';
export { buildGatewayRequest, checkGatewayReply, type GatewayConfig } from './gateway.ts';
export { buildWecomRequest, checkWecomReply, splitWebhook, joinWebhook, truncateUtf8, wecomMaxBytes } from './wecom.ts';
export { buildMail, sendMail, type MailConfig, type MailMessage, type MailTransportFactory, type MailTransportOptions } from './mail.ts';
export { smsText } from './text.ts';
