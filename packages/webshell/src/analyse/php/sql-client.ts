/**
 * A web SQL client: the page connects with credentials the request supplies and runs a query the
 * request supplies. Either half alone is ordinary (an installer tests the credentials a form gives;
 * a search page puts input into a query built by the application); both together are a remote
 * database console. phpMyAdmin does both too, but through its framework (login in one request,
 * credentials kept in an encrypted cookie, the connection made in a library file), never from raw
 * request input to the connect call and the query call in one file.
 */
import { type PhpNode, argumentsOf, identifierText, isNode, plainName, startOf, lengthOf } from './ast.ts';
import type { Facts } from './facts.ts';
import { INPUT, type Taint } from './taint.ts';
import { type Signal, medium } from '../../signals.ts';

/** Connect calls → the arguments that carry the server and credentials (-1: every argument). */
const connectArgs: Record<string, number[]> = {
  mysql_connect: [0, 1, 2], mysql_pconnect: [0, 1, 2], mysqli_connect: [0, 1, 2], mysqli_real_connect: [1, 2, 3],
  pg_connect: [0], pg_pconnect: [0], mssql_connect: [0, 1, 2], mssql_pconnect: [0, 1, 2], sqlsrv_connect: [0, 1],
  oci_connect: [0, 1, 2], oci_pconnect: [0, 1, 2], oci_new_connect: [0, 1, 2], ocilogon: [0, 1, 2], sybase_connect: [0, 1, 2],
  ifx_connect: [0, 1, 2], odbc_connect: [0, 1, 2], ibase_connect: [0, 1, 2],
};
/** `new mysqli(host, user, pass)`, `new PDO(dsn, user, pass)`. */
const connectClasses = new Set(['mysqli', 'pdo']);
/** Query calls → the index of the SQL text (-1: the last argument). */
const queryArg: Record<string, number> = {
  mysql_query: 0, mysql_unbuffered_query: 0, mysql_db_query: 1, mysqli_query: 1, mysqli_multi_query: 1, mysqli_real_query: 1,
  pg_query: -1, pg_exec: -1, pg_send_query: 1, mssql_query: 0, sqlsrv_query: 1, oci_parse: 1, ociparse: 1, sybase_query: 0,
  ifx_query: 0, odbc_exec: 1, ibase_query: -1, sqlite_query: -1,
};
/** Query methods of mysqli/PDO objects (only counted when the page also connects with request credentials). */
const queryMethods = new Set(['query', 'exec', 'multi_query', 'real_query', 'prepare']);

export function sqlClientSignal(facts: Facts, taint: Taint): Signal[] {
  let connect: PhpNode | undefined;
  let query: PhpNode | undefined;
  const tainted = (args: PhpNode[], indexes: number[], scope: string): boolean =>
    indexes.some((index) => { const arg = args[index < 0 ? args.length - 1 : index]; return !!arg && (taint.of(arg, scope) & INPUT) !== 0; });
  for (const { scope, node } of facts.sites) {
    if (connect && query) break;
    const args = argumentsOf(node);
    if (node.kind === 'new') {
      if (!connect && connectClasses.has(plainName(node.what) ?? '') && tainted(args, [0, 1, 2], scope)) connect = node;
      continue;
    }
    if (node.kind !== 'call' || !isNode(node.what)) continue;
    const what = node.what;
    const name = plainName(what);
    if (name !== undefined) {
      const credentials = connectArgs[name];
      if (!connect && credentials && tainted(args, credentials, scope)) connect = node;
      const sql = queryArg[name];
      if (!query && sql !== undefined && tainted(args, [sql], scope)) query = node;
    } else if (!query && (what.kind === 'propertylookup' || what.kind === 'nullsafepropertylookup')
      && queryMethods.has(identifierText(what.offset).toLowerCase()) && tainted(args, [0], scope)) {
      query = node;
    }
  }
  if (!connect || !query) return [];
  return [{ reason: 'sql_client_from_request', weight: medium + 1, offset: startOf(query), length: lengthOf(query) }];
}
