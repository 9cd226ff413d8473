import { z } from 'zod';
import { secretField } from './panel-actions.ts';

/** Panel account names: 4-20 letters, digits, hyphen or underscore; compared case-insensitively. */
export const accountNamePattern = /^[A-Za-z0-9_-]{4,20}$/;
export const accountNameSchema = z.string().regex(accountNamePattern, { message: 'account_name_invalid' });

/** Passwords: 6-50 characters, case-sensitive, neither only letters nor only digits. */
export function isValidPassword(value: string): boolean {
  if (value.length < 6 || value.length > 50) return false;
  if (/^[A-Za-z]+$/.test(value) || /^[0-9]+$/.test(value)) return false;
  // Printable ASCII only: what a server administrator can type on any keyboard layout.
  return /^[\x21-\x7e]+$/.test(value);
}
export const passwordSchema = secretField(z.string().refine(isValidPassword, { message: 'password_invalid' }));

/** Licence codes look like AAA-BBB; letters are taken in either case and stored upper-case. */
export const licenceCodePattern = /^[A-Za-z0-9]{3}-[A-Za-z0-9]{3}$/;
export const licenceCodeSchema = z
  .string()
  .trim()
  .regex(licenceCodePattern, { message: 'licence_code_invalid' })
  .transform((v) => v.toUpperCase());

/** The alphabet codes are drawn from: no 0/O or 1/I, which people misread. */
export const licenceCodeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Dotted-quad IPv4 without leading zeros. */
export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** IPv6 in any RFC 4291 text form, including `::` compression and an IPv4 tail; no zone id. */
export function isIPv6(value: string): boolean {
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(value)) return false;
  let head = value;
  let groupsFromTail = 0;
  const lastColon = value.lastIndexOf(':');
  if (value.includes('.')) {
    if (!isIPv4(value.slice(lastColon + 1))) return false;
    head = value.slice(0, lastColon + 1) + '0:0';
    groupsFromTail = 0;
  }
  const halves = head.split('::');
  if (halves.length > 2) return false;
  const groups = (text: string): string[] | null => {
    if (text === '') return [];
    const list = text.split(':');
    return list.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g)) ? list : null;
  };
  const left = groups(halves[0] ?? '');
  const right = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (!left || !right) return false;
  const count = left.length + right.length + groupsFromTail;
  return halves.length === 2 ? count <= 7 : count === 8;
}

export function isIpAddress(value: string): boolean {
  return isIPv4(value) || isIPv6(value);
}

/** A DNS host name (RFC 1123 labels), or an IP address. */
export function isHostOrIp(value: string): boolean {
  if (isIpAddress(value)) return true;
  if (value.length > 253) return false;
  return value.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}
