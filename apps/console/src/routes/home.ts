import {
  basicModules, computeSystemStatus, emptyBodySchema, eventModuleNames, isModuleInBuild, moduleSwitchBodySchema, noQuerySchema, performanceQuerySchema, productVersion, restartQuerySchema, virlibVersionOf,
  type HomeIndex, type Language, type ModuleKey, type ModuleSwitchBody, type ModuleSwitchResult,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';
import { getModuleFlags, setModuleFlags } from '../db/modules.ts';
import { getRegistration } from '../db/registration.ts';
import type { HostFacts } from '../services/host-facts.ts';
import { protectionStatus } from '../services/protection.ts';
import { gatherEngineHealth } from '../services/system-status.ts';
import type { GatewayPaths } from '../website/gateway-link.ts';

function switchedModules(body: ModuleSwitchBody): readonly ModuleKey[] {
  return body.module === 'basic' ? basicModules : [body.module];
}

/** Module names in the caller's language, as a list ("防火墙、远程防护" / "Firewall, Remote protection"). */
function moduleNames(lang: Language, modules: readonly ModuleKey[]): string {
  return modules.map((m) => eventModuleNames[m]?.[lang] ?? m).join(lang === 'zh-CN' ? '、' : ', ');
}

export const homeRoutes = (ctx: ConsoleContext, host: HostFacts, gateway: GatewayPaths): FastifyPluginAsyncZod => async (app) => {
  app.get('/home/index', { config: { access: perm('home', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const modules = getModuleFlags(ctx.db);
    // Side by side: the host, the rates, protection and each engine that is on; none of them fails the page (agent away: said, not a 500).
    const [facts, rates, protection, health, trojan, cloud] = await Promise.all([
      host(true),
      ctx.agent.call('host.rates', {}).catch(() => null),
      protectionStatus(ctx),
      gatherEngineHealth(ctx, gateway, modules),
      // The "cloud library version": the web-shell rule set the agent scans with and the threat-intel feeds (virlibVersionOf).
      ctx.agent.call('trojan.status', {}).catch(() => null),
      ctx.agent.call('cloud.status', {}).catch(() => null),
    ]);
    const agent = facts ? 'connected' : 'unreachable';
    const index: HomeIndex = {
      protection,
      version: productVersion,
      expires_at: getRegistration(ctx.db)?.expires_at ?? null,
      virlib_version: virlibVersionOf(trojan?.ruleSetVersion, cloud?.feeds ?? []),
      host: facts,
      rates,
      modules,
      agent,
      system_status: computeSystemStatus({ modules, protection: protection.mode, agent, health }),
    };
    return ok(request, index);
  });

  // Without a period: the current rates (as the live figures read them); with one: the agent's history (agent away: null, not a 500).
  app.get('/home/performance', { config: { access: perm('home', 'get') }, schema: { querystring: performanceQuerySchema } }, async (request) => {
    const { period } = request.query;
    if (!period) return ok(request, await ctx.agent.call('host.rates', {}).catch(() => null));
    return ok(request, await ctx.agent.call('host.performance', { period }).catch(() => null));
  });

  app.post(
    '/module_switch',
    {
      config: {
        audit: false,
        // Switching needs the key of every module it touches, with enable or disable.
        access: {
          kind: 'permissions',
          resolve: (request: FastifyRequest) => {
            const body = request.body as ModuleSwitchBody;
            return switchedModules(body).map((key) => ({ key, action: body.status === 1 ? 'enable' : 'disable' }));
          },
        },
      },
      schema: { body: moduleSwitchBodySchema },
    },
    async (request) => {
      const requested = switchedModules(request.body);
      const status = request.body.status;
      // A module whose engine is not in this build cannot be switched on (off stays allowed): a single
      // one is refused and nothing changes; "open all basic modules" opens those of this build and says which it could not.
      const skipped = status === 1 ? requested.filter((m) => !isModuleInBuild(m)) : [];
      const modules = requested.filter((m) => !skipped.includes(m));
      if (modules.length === 0) return failure(request, 'module_not_in_build', { module: moduleNames(request.lang, skipped) });
      // Desired state first: it holds even if the agent is away, and is pushed when it returns.
      setModuleFlags(ctx.db, modules, status);
      const result: ModuleSwitchResult = {
        modules: getModuleFlags(ctx.db),
        switched: [...modules],
        not_switched: skipped.map((module) => ({ module, reason: 'not_in_build' as const })),
      };
      recordModuleSwitch(ctx, request, modules, status);
      // The website gateway is the console's to drive (its file, its reload), not the agent's: told now, whether or not the agent answers.
      if (modules.includes('website')) ctx.policy.changed();
      const basicOn = request.body.module === 'basic' && status === 1;
      const names = { opened: moduleNames(request.lang, modules), skipped: moduleNames(request.lang, skipped) };
      try {
        await ctx.agent.call('module.switch', { modules: [...modules], status });
      } catch {
        return skipped.length > 0
          ? warning(request, 'basic_opened_partly_agent_down', result, names)
          : warning(request, 'module_saved_agent_down', result);
      }
      if (skipped.length > 0) return warning(request, 'basic_opened_partly', result, names);
      if (basicOn) return ok(request, result, 'basic_opened', names);
      return ok(request, result, status === 1 ? 'module_switched_on' : 'module_switched_off');
    },
  );

  app.post('/restart', { config: { access: perm('home', 'edit') }, schema: { querystring: restartQuerySchema, body: emptyBodySchema } }, async (request) => {
    const server = request.query.t === '2';
    try {
      await ctx.agent.call(server ? 'server.reboot' : 'software.restart', {});
    } catch {
      return failure(request, 'agent_unreachable');
    }
    return ok(request, undefined, server ? 'restart_server' : 'restart_software');
  });
};

/** Each switched module leaves an event; turning one off also raises a notice (its protection stopped). */
function recordModuleSwitch(ctx: ConsoleContext, request: FastifyRequest, modules: readonly ModuleKey[], status: 0 | 1): void {
  const account = request.user?.username ?? '';
  for (const module of modules) {
    ctx.events.record({ kind: 'module.switched', module, level: status === 1 ? 'info' : 'warning', source: 'console', account, ip: request.ip, params: { module, status } });
    if (status === 0) void ctx.agent.call('notices.raise', { kind: 'module_off', params: { account, module } }).then(() => ctx.noticeFeed.refresh(), () => {});
  }
}
