import Fastify, { type FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import fastifyRateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentPort, ConsoleContext } from './context.ts';
import { openDatabase, type Db } from './db/database.ts';
import { LicenceClient } from './services/licence-client.ts';
import { deviceId as machineDeviceId } from './services/device-id.ts';
import { hostFacts } from './services/host-facts.ts';
import { startModuleReconciler } from './services/module-reconciler.ts';
import { startLicenceWatch } from './services/licence-watch.ts';
import { startTerminalSweeper } from './services/trust-terminals.ts';
import { startAlerts } from './services/alert-dispatcher.ts';
import { Hub } from './ws/hub.ts';
import { registerWebsocket } from './ws/route.ts';
import { startRatesFeed } from './ws/rates-feed.ts';
import { startAttackFeed } from './ws/attack-feed.ts';
import { installAccessHook, type DeclaredRoute } from './http/access-hook.ts';
import { installErrorHandlers } from './http/errors.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { setWebAssetHeaders } from './http/web-assets.ts';
import { installPortalGate } from './portal/gate.ts';
import type { PortalOptions } from './portal/runtime.ts';
import { authRoutes } from './routes/auth.ts';
import { registerRoutes } from './routes/register.ts';
import { infoRoutes } from './routes/info.ts';
import { homeRoutes } from './routes/home.ts';
import { homeWizardRoutes } from './routes/home-wizard.ts';
import { homeUpdateRoutes } from './routes/home-update.ts';
import { noticeRoutes } from './routes/notice.ts';
import { logRoutes } from './routes/log.ts';
import { photoRoutes } from './routes/photo.ts';
import { systemLogRoutes } from './routes/system-log.ts';
import { firewallRoutes } from './routes/firewall.ts';
import { tamperRoutes } from './routes/tamper.ts';
import { accountRoutes } from './routes/account.ts';
import { processRoutes } from './routes/process.ts';
import { trojanRoutes } from './routes/trojan.ts';
import { cloudRoutes } from './routes/cloud.ts';
import { dynamicRoutes } from './routes/dynamic.ts';
import { auditRoutes } from './routes/audit.ts';
import { auditPatchRoutes } from './routes/audit-patch.ts';
import { auditInventoryRoutes } from './routes/audit-inventory.ts';
import { auditReportRoutes } from './routes/audit-report.ts';
import { remoteRoutes } from './routes/remote.ts';
import { resourceRoutes } from './routes/resource.ts';
import { systemBasicRoutes } from './routes/system-basic.ts';
import { systemPortalRoutes } from './routes/system-portal.ts';
import { systemUserRoutes } from './routes/system-users.ts';
import { systemAlertRoutes } from './routes/system-alerts.ts';
import { systemTrustRoutes } from './routes/system-trust.ts';
import { terminalRoutes } from './routes/terminal.ts';
import { systemAreaRoutes } from './routes/system-areas.ts';
import { systemConfigRoutes } from './routes/system-config.ts';
import { systemShortcutRoutes } from './routes/system-shortcut.ts';
import { websiteServerRoutes } from './routes/website.ts';
import { websiteSettingsRoutes } from './routes/website-settings.ts';
import { websiteListRoutes } from './routes/website-lists.ts';
import { defaultGatewayPaths, type GatewayPaths } from './website/gateway-link.ts';
import { createWebsiteLink, type WebsiteLink } from './website/website-link.ts';
import { createGatewayPoller, type GatewayPoller } from './website/gateway-events.ts';
import { shortcutLinkRoutes } from './shortcuts/link-routes.ts';
import { EventSink } from './services/event-sink.ts';
import { PolicySignal } from './services/policy-signal.ts';
import { DownloadJobs } from './services/download-jobs.ts';
import { installAuditTrail } from './http/audit-trail.ts';
import { startNoticeFeed } from './ws/notice-feed.ts';

export interface ConsoleOptions {
  /** SQLite file of the panel database (or an open database). */
  db: string | Db;
  agent: AgentPort;
  licenceUrl: string;
  /** The built web app; when missing, `/` explains how to build it. */
  webDir?: string;
  deviceId?: () => string;
  now?: () => number;
  logger?: boolean;
  /** Where packed log downloads are kept for 24 hours; by default beside the database. */
  downloadsDir?: string;
  /** Periodic jobs (module reconcile); tests turn them off to stay deterministic. */
  background?: boolean;
  /** The portal gate's geo-IP and super-whitelist cache (tests give their own). */
  portal?: PortalOptions;
  /** The website gateway's configuration file and admin socket; by default as the CLI lays out the data directory. */
  gateway?: GatewayPaths;
}

export interface Console {
  app: FastifyInstance;
  ctx: ConsoleContext;
  /** Every guarded route with the access it declares (the permission walk reads it). */
  routes: readonly DeclaredRoute[];
  /** The website gateway link: its policy check and event drain (running on timers unless `background` is false). */
  website: { link: WebsiteLink; poller: GatewayPoller };
  close(): Promise<void>;
}

const repoRoot = join(import.meta.dirname, '../../..');

export async function buildConsole(options: ConsoleOptions): Promise<Console> {
  const db = typeof options.db === 'string' ? openDatabase(options.db) : options.db;
  const now = options.now ?? Date.now;
  const hub = new Hub();
  const downloadsDir = options.downloadsDir ?? (typeof options.db === 'string' ? join(dirname(options.db), 'downloads') : join(tmpdir(), `rampart-downloads-${process.pid}`));
  const ctx: ConsoleContext = {
    db,
    agent: options.agent,
    licence: new LicenceClient(options.licenceUrl),
    hub,
    deviceId: options.deviceId ?? (() => machineDeviceId()),
    now,
    events: new EventSink(options.agent, { log: (line) => process.stderr.write(`${line}\n`) }),
    downloads: new DownloadJobs(downloadsDir, options.agent, now),
    noticeFeed: startNoticeFeed(hub, options.agent),
    policy: new PolicySignal(),
  };

  const app = Fastify({
    logger: options.logger ? { level: 'info', redact: ['req.headers.authorization', 'req.headers["sec-websocket-protocol"]'] } : false,
    bodyLimit: 64 * 1024,
    // Fastify's own JSON parser refuses __proto__ keys; keep it that way.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);
  app.decorateRequest('terminal', null);
  app.decorateRequest('lang', 'zh-CN');
  installSecurityHeaders(app);
  // Before everything else: a request that misses the safe entry, the bound domain or the authorized IPs gets a bare 404.
  installPortalGate(app, ctx, options.portal);
  installErrorHandlers(app);
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });

  const host = hostFacts(ctx.agent, ctx.now);
  const gatewayPaths = options.gateway ?? defaultGatewayPaths(typeof options.db === 'string' ? dirname(options.db) : join(tmpdir(), `rampart-gateway-${process.pid}`));
  const websiteLink = createWebsiteLink(ctx, gatewayPaths);
  const gatewayPoller = createGatewayPoller(websiteLink);
  // A module switch, a protection pause, a super-whitelist or area change reaches the gateway now, not at the next check.
  ctx.policy.listen(() => gatewayPoller.checkPolicy());
  const routes: DeclaredRoute[] = [];
  // Everything below this context is guarded: each route declares its access, one hook enforces it.
  await app.register(async (guarded) => {
    installAccessHook(guarded, ctx, routes);
    installAuditTrail(guarded, ctx);
    await guarded.register(async (api) => {
      await api.register(authRoutes(ctx));
      await api.register(registerRoutes(ctx));
      await api.register(infoRoutes(ctx, host));
      await api.register(homeRoutes(ctx, host, gatewayPaths));
      await api.register(homeWizardRoutes(ctx));
      await api.register(homeUpdateRoutes(ctx));
      await api.register(noticeRoutes(ctx));
      await api.register(logRoutes(ctx));
      await api.register(photoRoutes(ctx));
      await api.register(systemLogRoutes(ctx));
      await api.register(firewallRoutes(ctx));
      await api.register(tamperRoutes(ctx));
      await api.register(accountRoutes(ctx));
      await api.register(processRoutes(ctx));
      await api.register(trojanRoutes(ctx));
      await api.register(cloudRoutes(ctx));
      await api.register(dynamicRoutes(ctx));
      await api.register(auditRoutes(ctx));
      await api.register(auditPatchRoutes(ctx));
      await api.register(auditInventoryRoutes(ctx));
      await api.register(auditReportRoutes(ctx));
      await api.register(remoteRoutes(ctx));
      await api.register(resourceRoutes(ctx));
      await api.register(systemBasicRoutes(ctx));
      await api.register(systemPortalRoutes(ctx));
      await api.register(systemUserRoutes(ctx));
      await api.register(systemAlertRoutes(ctx));
      await api.register(systemTrustRoutes(ctx));
      await api.register(terminalRoutes(ctx));
      await api.register(systemAreaRoutes(ctx));
      await api.register(systemConfigRoutes(ctx));
      await api.register(systemShortcutRoutes(ctx));
      await api.register(websiteServerRoutes(ctx, websiteLink));
      await api.register(websiteSettingsRoutes(ctx, websiteLink));
      await api.register(websiteListRoutes(ctx, websiteLink));
    }, { prefix: '/magapi' });
    registerWebsocket(guarded, ctx);
  });

  // Shortcut links (`/shortcut/<token>`): public pages outside /magapi whose token is the credential.
  await app.register(shortcutLinkRoutes(ctx));
  registerStatic(app, options.webDir ?? join(repoRoot, 'apps/web/dist'));

  const stops: (() => void)[] = [startRatesFeed(ctx.hub, ctx.agent), startAttackFeed(ctx.hub, ctx.agent), () => ctx.noticeFeed.stop()];
  let stopGatewayPoller: () => Promise<void> = async () => {};
  if (options.background !== false) {
    // The website gateway's events (every second) and its policy check (every few seconds).
    stopGatewayPoller = gatewayPoller.start();
    stops.push(startModuleReconciler(ctx), startLicenceWatch(ctx), startTerminalSweeper(ctx));
    // Notices raised by the agent go out by the chosen notification methods (system alerts tab).
    stops.push(startAlerts(ctx));
    void ctx.downloads.sweep();
    const sweeper = setInterval(() => void ctx.downloads.sweep(), 60 * 60 * 1000);
    stops.push(() => clearInterval(sweeper));
  }
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
    // A push still writing the gateway file finishes before the database closes.
    await ctx.policy.settled();
    await stopGatewayPoller();
    await ctx.events.close();
  });

  return {
    app,
    ctx,
    routes,
    website: { link: websiteLink, poller: gatewayPoller },
    close: async () => {
      await app.close();
      if (typeof options.db === 'string') db.close();
    },
  };
}

function registerStatic(app: FastifyInstance, webDir: string): void {
  const readme = join(repoRoot, 'README.md');
  app.get('/help', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(existsSync(readme) ? readFileSync(readme, 'utf8') : 'Rampart'));
  if (existsSync(join(webDir, 'index.html'))) {
    // Compressed variants from the build, and cache headers by file name: http/web-assets.ts.
    // `index` as a list: with `preCompressed`, @fastify/static 10 finds no index in a plain string ('/' was a 404).
    void app.register(fastifyStatic, {
      root: webDir, index: ['index.html'], wildcard: true, preCompressed: true, cacheControl: false, setHeaders: setWebAssetHeaders,
    });
    // The trust terminal's page (issue 28): a page of its own in the same build (apps/web/trust.html).
    app.get('/trust', async (_request, reply) => reply.sendFile('trust.html'));
  } else {
    app.get('/', async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').send('The web console is not built: run `npm run build:web` (npm start does it for you).\n'));
  }
}
