/** Server messages of the configuration backup: export, import, server backups, restore. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const configBackupMessages = { zh, en };
