/** Server messages of the sign-in verification (codes by SMS/WeChat/e-mail, TOTP). */
const zh = {
} as const;

const en: Record<keyof typeof zh, string> = {
};

export const signInCheckMessages = { zh, en };
