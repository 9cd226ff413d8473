export { startAgent, type AgentExecutors, type AgentOptions, type RunningAgent } from './agent.ts';
export { collectHostInfo } from './host/host-info.ts';
export { parseMeminfo, type MemoryUsage } from './host/meminfo.ts';
export { parseMounts, realFilesystems, type MountEntry } from './host/mounts.ts';
export { parseNetDev, type InterfaceCounters } from './host/net-dev.ts';
export { computeNetRates, type NetSample } from './host/net-rates.ts';
export { parseOsRelease, prettyOsName } from './host/os-release.ts';
export { kernelStatusFrom } from './host/kernel-status.ts';
export { RateSampler } from './host/rate-sampler.ts';
