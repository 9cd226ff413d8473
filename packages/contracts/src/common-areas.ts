// Schemas of the common areas: named sets of countries and provinces.

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
export const commonAreasAgentParams = {} as const;
export const commonAreasAgentResults = {} as const;
