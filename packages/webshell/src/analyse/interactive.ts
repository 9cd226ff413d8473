/**
 * An interactive shell: the page starts a bare command interpreter (`cmd.exe`, `/bin/sh`, `bash`,
 * `powershell`) with no command of its own and talks to its standard input. Applications run
 * programs to do one job (`convert x.png`, `git log`); nothing but a remote console starts an
 * interpreter and feeds it lines.
 */
const interpreter = String.raw`(?:cmd(?:\.exe)?|powershell(?:\.exe)?|(?:/usr)?(?:/bin/)?(?:ba|z|k|da)?sh)(?:\s+-i)?`;

/** JSP: `Runtime.getRuntime().exec("cmd")`, `new ProcessBuilder("/bin/sh")`. */
export const javaInterpreter = new RegExp(String.raw`(?:\.\s*exec|\bnew\s+ProcessBuilder)\s*\(\s*"${interpreter}"\s*\)`, 'i');
/** ASP.NET: `FileName = "cmd.exe"`, `new ProcessStartInfo("cmd.exe")`, `Process.Start("cmd.exe")`. */
export const dotnetInterpreter = new RegExp(String.raw`(?:\.\s*FileName\s*=\s*|\bProcessStartInfo\s*\(\s*|\bProcess\s*\.\s*Start\s*\(\s*)@?"${interpreter}"\s*[;)]`, 'i');
/** Writing to the child's standard input. */
export const javaFeedsStdin = /\.\s*getOutputStream\s*\(\s*\)/;
export const dotnetFeedsStdin = /\bStandardInput\s*\.\s*Write(?:Line)?\s*\(/i;
