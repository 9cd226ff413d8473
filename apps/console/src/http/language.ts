import { defaultLanguage, pickLanguage, type Language } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';

/** The caller's language: what the client asks for, else the account's own, else the default. */
export function requestLanguage(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language']) ?? request.user?.lang ?? defaultLanguage;
}
