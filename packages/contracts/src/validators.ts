import { z } from 'zod';

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
export const passwordSchema = z.string().refine(isValidPassword, { message: 'password_invalid' });

/** Licence codes look like AAA-BBB; letters are taken in either case and stored upper-case. */
export const licenceCodePattern = /^[A-Za-z0-9]{3}-[A-Za-z0-9]{3}$/;
export const licenceCodeSchema = z
  .string()
  .trim()
  .regex(licenceCodePattern, { message: 'licence_code_invalid' })
  .transform((v) => v.toUpperCase());

/** The alphabet codes are drawn from: no 0/O or 1/I, which people misread. */
export const licenceCodeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
