// Schemas of the basic tab: temporary disable, alias, NTP.

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
export const systemBasicAgentParams = {} as const;
export const systemBasicAgentResults = {} as const;
