import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, user tab: accounts and online terminals. */
export const systemUserRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
