import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, alerts tab: notification service. */
export const systemAlertRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
