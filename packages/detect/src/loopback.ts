import { isIPv4 } from 'node:net';

/** 127.0.0.0/8 and ::1: the host talking to itself, never a source to block. */
export function isLoopback(ip: string): boolean {
  if (isIPv4(ip)) return ip.startsWith('127.');
  return ip === '::1' || /^::ffff:127\./i.test(ip);
}
