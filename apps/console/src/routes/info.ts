import { noQuerySchema, languageBodySchema, permissionsOf, type GlobalInfo, type UserInfo } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { sessionAccess } from '../http/access.ts';
import { ok } from '../http/reply.ts';
import { getSetting } from '../db/settings.ts';
import { getModuleFlags } from '../db/modules.ts';
import { isRegistered } from '../db/registration.ts';
import { setUserLanguage } from '../db/users.ts';
import type { HostFacts } from '../services/host-facts.ts';
import { roleName } from '../services/role-names.ts';
import { clientAddress } from '../portal/addresses.ts';

export const infoRoutes = (ctx: ConsoleContext, host: HostFacts): FastifyPluginAsyncZod => async (app) => {
  app.get('/info', { config: { access: sessionAccess }, schema: { querystring: noQuerySchema } }, async (request) => {
    const user = request.user!;
    const facts = await host();
    const info: UserInfo = {
      username: user.username,
      os: facts?.os ?? '',
      os_type: facts?.osType ?? 'linux',
      server_alias: getSetting(ctx.db, 'server_alias'),
      role: { id: user.role, name: roleName(user.role, request.lang), permissions: permissionsOf(user.role) },
      module_list: getModuleFlags(ctx.db),
      // No demo offer in a self-hosted build: the header's demo button stays hidden.
      demo: null,
      lang: user.lang,
      client_ip: clientAddress(request.ip),
    };
    return ok(request, info);
  });

  app.get('/global', { config: { access: sessionAccess }, schema: { querystring: noQuerySchema } }, async (request) => {
    const global: GlobalInfo = {
      modules: getModuleFlags(ctx.db),
      oem: { oem_help: getSetting(ctx.db, 'help_url') },
      registered: isRegistered(ctx.db, ctx.now()),
    };
    return ok(request, global);
  });

  app.post('/system/basic/language', { config: { access: sessionAccess }, schema: { body: languageBodySchema } }, async (request) => {
    setUserLanguage(ctx.db, request.user!.id, request.body.lang);
    request.lang = request.body.lang;
    return ok(request, { lang: request.body.lang });
  });
};
