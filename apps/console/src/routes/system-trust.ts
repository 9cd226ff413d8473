import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, trust_terminal tab: the super whitelist. */
export const systemTrustRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
