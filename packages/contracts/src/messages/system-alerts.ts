/** Server messages of the alerts tab: notification service and methods. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const systemAlertsMessages = { zh, en };
