/** The website-protection reverse proxy (issue 6): one listener per protected site, across cores. */
export { resolveClientIp, parseTrustedProxies, normalizeAddress } from './client-ip.ts';
export { renderBlockResponse, renderProxyError } from './block-response.ts';
export { parseGatewayConfig, loadGatewayConfig } from './config.ts';
export { GatewayServers } from './gateway-servers.ts';
export { GatewayPrimary, type ReloadResult } from './primary.ts';
export { adminCommand } from './admin-socket.ts';
export { passInspector, type Inspector, type GatewayEvent, type OnGatewayEvent } from './inspector.ts';
export { parseNginxDump, type NginxSite } from './discovery/nginx-dump.ts';
export { parseApacheVhosts, type ApacheVhost } from './discovery/apache-vhosts.ts';
export { discoverLocalSites, type CandidateSite } from './discovery/discover.ts';
