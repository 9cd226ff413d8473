/** Server messages of the portal tab: panel listener, HTTPS, authorized IPs, login policy. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const systemPortalMessages = { zh, en };
