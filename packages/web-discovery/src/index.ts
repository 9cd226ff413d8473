/**
 * Finding the local web servers' sites (issue 6): `nginx -T` and `apachectl -S` read into listen
 * addresses, names and origins. Pure parsers plus one runner; the agent runs it (as root, it can
 * read every configuration file) and the console offers what it finds.
 */
export { parseNginxDump, parseNginxListen, type NginxSite } from './nginx-dump.ts';
export { parseApacheVhosts, type ApacheVhost } from './apache-vhosts.ts';
export { apacheDocumentRoot } from './apache-document-root.ts';
export { discoverLocalSites, nginxCandidates, apacheCandidates, type CandidateSite } from './discover.ts';
export { listeningPorts, planOrigins, type OriginMove, type OriginPlan } from './origin-plan.ts';
