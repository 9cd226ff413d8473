/**
 * ASP/ASPX remote-administration capabilities at token level: a SQL client whose connection and
 * query both come from the request, a download of any path the request names, an upload saved
 * under the uploader's own file name with no extension check, request text written to a path the
 * request names, and an interactive interpreter fed
 * from the page. Applications do the same things with their own connection string, under a fixed
 * folder (`Server.MapPath("~/files/" + name)`), after checking the extension, and never with a
 * bare `cmd.exe`.
 */
import { dotnetFeedsStdin, dotnetInterpreter } from './interactive.ts';
import { firstMatch, signalAt } from './tokens.ts';
import { type Signal, medium, strong } from '../signals.ts';

const connection = [
  /\bnew\s+(?:[\w.]+\.)?(?:Sql|OleDb|Odbc|MySql|Oracle|Npgsql)Connection\s*\(([^;\r\n]{1,200})/gi,
  /\.\s*ConnectionString\s*=\s*([^;\r\n]{1,200})/gi,
  /\b\w+\s*\.\s*Open\s*\(?\s*([^\r\n:]{1,200})/gi, // classic ASP: ADODB.Connection's Open
];
const query = [
  /\bnew\s+(?:[\w.]+\.)?(?:Sql|OleDb|Odbc|MySql|Oracle|Npgsql)(?:Command|DataAdapter)\s*\(([^;\r\n]{1,200})/gi,
  /\.\s*CommandText\s*=\s*([^;\r\n]{1,200})/gi,
  /\b\w+\s*\.\s*Execute\s*\(?\s*([^\r\n:]{1,200})/gi, // classic ASP: conn.Execute(sql)
];
const download = /\b(?:Response\s*\.\s*(?:WriteFile|TransmitFile)\s*\(|\.\s*LoadFromFile\s*\(?)\s*([^;\r\n]{1,200})/gi;
/** A path under a folder of the application's own choosing, or a literal path. */
const fixedFolder = /^\s*(?:Server\s*\.\s*MapPath|HttpContext\s*\.\s*Current\s*\.\s*Server\s*\.\s*MapPath|["'@]|Path\s*\.\s*Combine\s*\(\s*(?:Server\s*\.\s*MapPath|["'@]))/i;
const uploadSave = /(?:\.\s*SaveAs\s*\(|\bnew\s+FileStream\s*\(|\bFile\s*\.\s*WriteAllBytes\s*\()([^;\r\n]{1,300})/gi;
/** A file opened for writing at a path given as the argument, and what is written into it. */
const writerOpen = /(?:\bnew\s+(?:System\.IO\.)?(?:StreamWriter|FileStream)\s*\(|\bFile\s*\.\s*(?:WriteAll(?:Text|Bytes)|AppendAllText|CreateText)\s*\(|\.\s*CreateTextFile\s*\(?)([^;\r\n]{1,300})/gi;
const writeCall = /(?:\.\s*Write(?:Line)?\s*\(?|\bFile\s*\.\s*(?:WriteAll(?:Text|Bytes)|AppendAllText)\s*\([^,]{1,200},)([^;\r\n]{1,300})/gi;
const extensionCheck = /\bGetExtension\s*\(|\.\s*EndsWith\s*\(|\.\s*Extension\b|\bContentType\b|\bInStrRev\s*\(/i;

/** The first match of any pattern whose captured argument satisfies the test. */
function firstWith(text: string, patterns: readonly RegExp[], test: (argument: string) => boolean): RegExpExecArray | null {
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) if (test(match[1] ?? '')) return match as RegExpExecArray;
  }
  return null;
}

export function aspAdminSignals(text: string, input: boolean, fromInput: (argument: string) => boolean): Signal[] {
  const signals: Signal[] = [];
  if (input) {
    const connect = firstWith(text, connection, fromInput);
    const sql = connect && firstWith(text, query, fromInput);
    if (connect && sql) signals.push(signalAt(sql, 'sql_client_from_request', medium + 1));
    const sent = firstWith(text, [download], (argument) => fromInput(argument) && !fixedFolder.test(argument));
    if (sent) signals.push(signalAt(sent, 'aspx_file_download', medium + 1));
    const saved = extensionCheck.test(text) ? null : firstWith(text, [uploadSave], (argument) => /\.\s*FileName\b/i.test(argument));
    if (saved) signals.push(signalAt(saved, 'aspx_unchecked_upload', medium + 1));
    // Request text written to a path the request chose: a file dropper (the path may as well be a page).
    const opened = firstWith(text, [writerOpen], (argument) => fromInput(argument) && !fixedFolder.test(argument));
    if (opened && firstWith(text, [writeCall], fromInput)) signals.push(signalAt(opened, 'input_written_to_script', medium + 1));
  }
  const shell = firstMatch(text, dotnetInterpreter);
  if (shell && dotnetFeedsStdin.test(text)) signals.push(signalAt(shell, 'interactive_shell', input ? strong : medium + 1));
  return signals;
}
