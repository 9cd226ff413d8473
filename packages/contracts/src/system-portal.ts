// Schemas of the portal tab: panel listener, HTTPS, authorized IPs, login policy.

export {};
