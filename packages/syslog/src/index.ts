export {
  formatSyslog,
  syslogCharsets,
  syslogProtocols,
  defaultFacility,
  type SyslogCharset,
  type SyslogFormatOptions,
  type SyslogMessage,
  type SyslogProtocol,
} from './format.ts';
export { maxMsgBytes } from './encode.ts';
export type { Sender, SenderOptions, SenderStats } from './sender.ts';
export { createSender, syslogTransports, type SyslogServer, type SyslogTransport } from './transport.ts';
export { SyslogForwarder, type SyslogForwarderConfig, type SyslogServerStats } from './forwarder.ts';
