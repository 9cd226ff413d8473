export { buildConsole, type Console, type ConsoleOptions } from './app.ts';
export type { AgentPort, ConsoleContext } from './context.ts';
export { openDatabase, schemaVersion, transaction, type Db } from './db/database.ts';
export { createUser, findUserByName, findFirstAdmin, setPasswordHash } from './db/users.ts';
export { deleteUserSessions } from './db/sessions.ts';
export { isRegistered } from './db/registration.ts';
export { hashPassword, generatePassword } from './security/passwords.ts';
export { adminAccountName } from './services/registration.ts';
