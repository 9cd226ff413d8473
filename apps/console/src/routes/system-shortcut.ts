import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';

/** System settings, shortcut management. */
export const systemShortcutRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (_app) => {};
