// Schemas of the sign-in verification (codes by SMS/WeChat/e-mail, TOTP).

export {};
