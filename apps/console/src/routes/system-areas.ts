import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, common areas. */
export const systemAreaRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
