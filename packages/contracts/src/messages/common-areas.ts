/** Server messages of the common areas: named sets of countries and provinces. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const commonAreasMessages = { zh, en };
