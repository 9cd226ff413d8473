/** Server messages of the user tab: panel accounts and online terminals. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const systemUsersMessages = { zh, en };
