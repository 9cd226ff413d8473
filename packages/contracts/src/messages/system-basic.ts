/** Server messages of the basic tab: temporary disable, alias, NTP. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const systemBasicMessages = { zh, en };
