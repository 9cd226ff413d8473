// Schemas of the alerts tab: notification service and methods.

export {};
