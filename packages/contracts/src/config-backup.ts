// Schemas of the configuration backup: export, import, server backups, restore.

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
export const configBackupAgentParams = {} as const;
export const configBackupAgentResults = {} as const;
