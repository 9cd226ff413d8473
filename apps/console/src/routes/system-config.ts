import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, configuration backup. */
export const systemConfigRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
