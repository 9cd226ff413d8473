// Schemas of the shortcut management: signed links that run named operations.

export {};
