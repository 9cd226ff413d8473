/** Server messages of the shortcut management: signed links that run named operations. */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const shortcutsMessages = { zh, en };
