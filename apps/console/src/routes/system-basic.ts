import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, basic tab: temporary disable, alias, NTP. */
export const systemBasicRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
