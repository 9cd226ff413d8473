import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, portal tab. */
export const systemPortalRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
