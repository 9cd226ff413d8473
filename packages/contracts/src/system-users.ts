// Schemas of the user tab: panel accounts and online terminals.

export {};
