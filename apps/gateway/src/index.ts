/** The website-protection reverse proxy (issue 6): one listener per protected site, across cores. */
export { resolveClientIp, parseTrustedProxies, normalizeAddress } from './client-ip.ts';
export { renderBlockResponse, renderProxyError } from './block-response.ts';
export { parseGatewayConfig, loadGatewayConfig } from './config.ts';
export { GatewayServers } from './gateway-servers.ts';
export { GatewayPrimary, type ReloadResult } from './primary.ts';
export { adminCommand } from './admin-socket.ts';
export { passInspector, type Inspector, type GatewayEvent, type OnGatewayEvent } from './inspector.ts';
