export {
  buildRequest, fromNtpTimestamp, offsetAndDelay, packetSize, parsePacket, referenceIdText, toNtpTimestamp, type NtpPacket, type NtpTimestamp,
} from './packet.ts';
export { queryFirst, querySntp, SntpAllFailedError, SntpError, type SntpErrorCode, type SntpOptions, type SntpResult, type SntpTarget } from './query.ts';
