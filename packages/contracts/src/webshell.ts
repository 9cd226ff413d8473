import { z } from 'zod';
import type { Language } from './i18n.ts';

/*
 * Web-shell (trojan) scanning: what one scanned file reports, and the progress of a tree scan.
 * The engine is packages/webshell; the agent runs it and the console shows these shapes.
 */

/**
 * Risk levels. The spec's audit result has a "risk" column without naming its values; these are the
 * three the console shows (高危 / 中危 / 低危). `none` is a clean file. Only `high` and `medium`
 * count as a web shell for handling (isolate, delete, record); `low` is a weak signal kept for the
 * record, because benign frameworks show single weak signals all the time.
 */
export const webshellRisks = ['none', 'low', 'medium', 'high'] as const;
export const webshellRiskSchema = z.enum(webshellRisks);
export type WebshellRisk = z.infer<typeof webshellRiskSchema>;

/** True for the levels that make a file a web shell (the ones handling acts on). */
export const isFlaggedRisk = (risk: WebshellRisk): boolean => risk === 'high' || risk === 'medium';

/** The language a file was judged as: from its extension and, above all, its content. */
export const webshellLanguages = ['php', 'jsp', 'asp', 'aspx', 'polyglot', 'other'] as const;
export const webshellLanguageSchema = z.enum(webshellLanguages);
export type WebshellLanguage = z.infer<typeof webshellLanguageSchema>;

/** Where a finding came from. */
export const webshellSources = ['signature', 'analysis', 'custom_rule', 'custom_hash'] as const;
export const webshellSourceSchema = z.enum(webshellSources);

type Texts = Record<Language, string>;

/**
 * Every reason a finding or an unscanned file can give, in both languages. Signature findings carry
 * the rule name beside the `signature` / `custom_rule` key (`{rule}` in the text).
 */
export const webshellReasons = {
  // Signatures and custom library
  signature: { 'zh-CN': '命中特征规则 {rule}', 'en-US': 'Matched signature rule {rule}' },
  custom_rule: { 'zh-CN': '命中自定义规则 {rule}', 'en-US': 'Matched custom rule {rule}' },
  custom_hash: { 'zh-CN': '文件哈希在自定义木马库中', 'en-US': 'File hash is in the custom library' },
  // PHP behaviour: user input reaching a sink
  input_to_code_exec: { 'zh-CN': '用户输入被当作代码执行（eval/assert/create_function）', 'en-US': 'User input is executed as code (eval/assert/create_function)' },
  input_to_command: { 'zh-CN': '用户输入被当作系统命令执行', 'en-US': 'User input is run as a system command' },
  input_to_include: { 'zh-CN': '包含由用户输入决定的文件', 'en-US': 'Includes a file chosen by user input' },
  input_to_callback: { 'zh-CN': '回调函数名来自用户输入', 'en-US': 'A callback name comes from user input' },
  input_to_variable_function: { 'zh-CN': '由用户输入决定调用的函数（可变函数）', 'en-US': 'User input chooses the function called (variable function)' },
  input_to_preg_eval: { 'zh-CN': 'preg_replace 使用 /e 修饰符执行代码', 'en-US': 'preg_replace with the /e modifier executes code' },
  input_written_to_script: { 'zh-CN': '把用户输入写入脚本文件', 'en-US': 'Writes user input into a script file' },
  unchecked_upload: { 'zh-CN': '保存上传文件且不检查扩展名', 'en-US': 'Saves uploaded files without checking their extension' },
  input_to_variable_variable: { 'zh-CN': '用户输入决定变量名（$$）', 'en-US': 'User input chooses a variable name ($$)' },
  extract_input: { 'zh-CN': '把用户输入导入为变量（extract）', 'en-US': 'Imports user input as variables (extract)' },
  // PHP behaviour: decoded or hidden code
  decoded_to_code_exec: { 'zh-CN': '解码后的数据被当作代码执行', 'en-US': 'Decoded data is executed as code' },
  decoded_to_call: { 'zh-CN': '调用的函数名由解码得到', 'en-US': 'The function called is obtained by decoding' },
  hidden_sink_call: { 'zh-CN': '通过拼接或编码隐藏危险函数名', 'en-US': 'A dangerous function name is hidden by concatenation or encoding' },
  code_exec_dynamic: { 'zh-CN': '执行非常量代码', 'en-US': 'Executes non-constant code' },
  command_dynamic: { 'zh-CN': '执行非常量系统命令', 'en-US': 'Runs a non-constant system command' },
  command_constant: { 'zh-CN': '执行固定的系统命令', 'en-US': 'Runs a fixed system command' },
  code_exec_constant: { 'zh-CN': '执行常量代码', 'en-US': 'Executes constant code' },
  decode_chain: { 'zh-CN': '多层解码（base64/gzinflate/str_rot13 等）', 'en-US': 'Layered decoding (base64/gzinflate/str_rot13 ...)' },
  built_function_name: { 'zh-CN': '拼接字符串构造函数名', 'en-US': 'A function name is built from string pieces' },
  chr_concatenation: { 'zh-CN': '大量 chr() 拼接字符串', 'en-US': 'Strings built from many chr() calls' },
  high_entropy_literal: { 'zh-CN': '长且高熵的字符串常量', 'en-US': 'Long high-entropy string literal' },
  mostly_one_literal: { 'zh-CN': '文件几乎全部是一个字符串常量', 'en-US': 'The file is almost entirely one string literal' },
  shell_toolkit: { 'zh-CN': '具备木马常见功能组合（命令、文件管理、系统信息）', 'en-US': 'Combines typical web-shell features (commands, file manager, system facts)' },
  file_manager_from_request: { 'zh-CN': '按请求指定的任意路径列目录、读取或修改文件（文件管理器）', 'en-US': 'Lists, reads or changes any path the request names (a file manager)' },
  xpath_php_callback: { 'zh-CN': 'XPath/XSLT 可调用任意 PHP 函数（registerPHPFunctions）', 'en-US': 'XPath/XSLT may call any PHP function (registerPHPFunctions)' },
  ld_preload_bypass: { 'zh-CN': '设置 LD_PRELOAD 后启动进程，绕过 disable_functions', 'en-US': 'Sets LD_PRELOAD and starts a process to get around disable_functions' },
  sql_client_from_request: { 'zh-CN': '用请求提供的账号连接数据库并执行请求提供的 SQL', 'en-US': 'Connects to a database with request-supplied credentials and runs request-supplied SQL' },
  interactive_shell: { 'zh-CN': '启动交互式命令解释器（sh/bash/cmd）', 'en-US': 'Starts an interactive command interpreter (sh/bash/cmd)' },
  // JSP, ASP, ASPX, images
  jsp_command_from_request: { 'zh-CN': 'JSP 用请求参数执行系统命令', 'en-US': 'JSP runs a system command from a request parameter' },
  jsp_class_loader: { 'zh-CN': 'JSP 解码并加载类字节（defineClass）', 'en-US': 'JSP decodes and loads class bytes (defineClass)' },
  jsp_reflection_from_request: { 'zh-CN': 'JSP 通过反射调用请求指定的方法', 'en-US': 'JSP calls a method named by the request through reflection' },
  jsp_script_eval: { 'zh-CN': 'JSP 用脚本引擎执行请求内容', 'en-US': 'JSP evaluates request content with a script engine' },
  jsp_command: { 'zh-CN': 'JSP 执行系统命令', 'en-US': 'JSP runs a system command' },
  jsp_file_manager: { 'zh-CN': 'JSP 按请求参数读写文件', 'en-US': 'JSP reads and writes files named by the request' },
  asp_execute_request: { 'zh-CN': 'ASP 执行请求内容（Execute/Eval）', 'en-US': 'ASP executes request content (Execute/Eval)' },
  asp_execute_decoded: { 'zh-CN': 'ASP 执行解码后的代码', 'en-US': 'ASP executes decoded code' },
  asp_encoded_script: { 'zh-CN': 'ASP 代码经 Script Encoder 编码隐藏', 'en-US': 'ASP code is hidden with the Script Encoder' },
  asp_shell_object: { 'zh-CN': 'ASP 创建命令执行对象（WScript.Shell）', 'en-US': 'ASP creates a command object (WScript.Shell)' },
  aspx_process_from_request: { 'zh-CN': 'ASPX 用请求内容启动进程', 'en-US': 'ASPX starts a process from request content' },
  aspx_assembly_load: { 'zh-CN': 'ASPX 加载请求中解码的程序集', 'en-US': 'ASPX loads an assembly decoded from the request' },
  aspx_eval_request: { 'zh-CN': 'ASPX 执行请求内容（eval）', 'en-US': 'ASPX evaluates request content (eval)' },
  asp_file_manager: { 'zh-CN': 'ASP 按请求参数读写文件', 'en-US': 'ASP reads and writes files named by the request' },
  iis_password_read: { 'zh-CN': '从 IIS 元数据库读取其他账户的密码', 'en-US': 'Reads another account\'s password from the IIS metabase' },
  aspx_file_download: { 'zh-CN': 'ASP/ASPX 把请求指定路径的文件发送给访问者', 'en-US': 'ASP/ASPX sends the visitor any file whose path the request names' },
  aspx_unchecked_upload: { 'zh-CN': 'ASP/ASPX 按上传时的文件名保存上传文件且不检查扩展名', 'en-US': 'ASP/ASPX saves an uploaded file under its own name without checking the extension' },
  asp_command: { 'zh-CN': 'ASP/ASPX 执行系统命令', 'en-US': 'ASP/ASPX runs a system command' },
  polyglot_image: { 'zh-CN': '图片文件中嵌入脚本代码', 'en-US': 'Script code hidden inside an image file' },
  // Why a file was not scanned
  unscanned_too_big: { 'zh-CN': '文件超过大小阈值，已跳过', 'en-US': 'File is over the size threshold: skipped' },
  unscanned_unreadable: { 'zh-CN': '文件无法读取', 'en-US': 'File could not be read' },
  unscanned_not_regular: { 'zh-CN': '不是普通文件', 'en-US': 'Not a regular file' },
  unscanned_timeout: { 'zh-CN': '扫描超时', 'en-US': 'Scan timed out' },
  unscanned_too_complex: { 'zh-CN': '代码嵌套过深，无法分析', 'en-US': 'Code is nested too deeply to analyse' },
  unscanned_error: { 'zh-CN': '扫描出错', 'en-US': 'Scan failed' },
} as const satisfies Record<string, Texts>;

export type WebshellReason = keyof typeof webshellReasons;
const reasonKeys = Object.keys(webshellReasons) as [WebshellReason, ...WebshellReason[]];
export const webshellReasonSchema = z.enum(reasonKeys);

export const webshellUnscannedReasons = ['unscanned_too_big', 'unscanned_unreadable', 'unscanned_not_regular', 'unscanned_timeout', 'unscanned_too_complex', 'unscanned_error'] as const;
export const webshellUnscannedReasonSchema = z.enum(webshellUnscannedReasons);
export type WebshellUnscannedReason = z.infer<typeof webshellUnscannedReasonSchema>;

/** The longest evidence snippet a finding carries (characters). */
export const webshellEvidenceMax = 160;

export const webshellFindingSchema = z.object({
  source: webshellSourceSchema,
  reason: webshellReasonSchema,
  /** The YARA rule's name for `signature` and `custom_rule` findings. */
  rule: z.string().max(128).optional(),
  risk: webshellRiskSchema,
  /** The code that shows it, cut to webshellEvidenceMax characters; never executed or rendered as HTML. */
  evidence: z.string().max(webshellEvidenceMax),
  /** Byte offsets in the file: [offset, offset + length). */
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
});
export type WebshellFinding = z.infer<typeof webshellFindingSchema>;

export const webshellFileResultSchema = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().nonnegative(),
  /** Lowercase hex SHA-256 of the content; empty when the file was not read. */
  sha256: z.string().regex(/^([0-9a-f]{64})?$/),
  language: webshellLanguageSchema,
  status: z.enum(['scanned', 'unscanned']),
  unscannedReason: webshellUnscannedReasonSchema.optional(),
  /** The strongest finding's risk: the file's verdict. */
  risk: webshellRiskSchema,
  findings: z.array(webshellFindingSchema),
  elapsedMs: z.number().nonnegative(),
});
export type WebshellFileResult = z.infer<typeof webshellFileResultSchema>;

/**
 * The spec's scan states: start, end (stopped before every file was done: cancelled) and complete;
 * `scanning` is every report in between.
 */
export const webshellScanStates = ['start', 'scanning', 'end', 'complete'] as const;
export const webshellScanProgressSchema = z.object({
  state: z.enum(webshellScanStates),
  done: z.number().int().nonnegative(),
  /** Files found so far; final once the walk is over (`walkDone`). */
  total: z.number().int().nonnegative(),
  walkDone: z.boolean(),
  currentPath: z.string(),
  flagged: z.number().int().nonnegative(),
  unscanned: z.number().int().nonnegative(),
});
export type WebshellScanProgress = z.infer<typeof webshellScanProgressSchema>;

/** A whitelist entry: a full path, or a partial path that must contain `*` (the spec's rule). */
export const webshellWhitelistEntrySchema = z.string().min(1).max(4096).refine(
  (value) => value.startsWith('/') || value.includes('*'),
  { message: 'trojan_whitelist_partial_needs_star' },
);

export const webshellScanOptionsSchema = z.object({
  /** Skip files over this size, in KB (the spec's file-size skip threshold). */
  sizeLimitKb: z.number().int().min(1).max(1024 * 1024),
  /** Extensions to scan, without the dot (the spec's kill types), e.g. php asp asa inc aspx asax ashx jsp js. */
  extensions: z.array(z.string().regex(/^[A-Za-z0-9_]{1,16}$/)).max(64),
  whitelist: z.array(webshellWhitelistEntrySchema).max(1000),
  /** Time one file may take before it is reported unscanned (timeout). */
  timeBudgetMs: z.number().int().min(50).max(60_000),
  workers: z.number().int().min(1).max(16),
});
export type WebshellScanOptions = z.infer<typeof webshellScanOptionsSchema>;

/** The reason's text in a language, with `{rule}` filled in. */
export function webshellReasonText(reason: WebshellReason, language: Language, rule?: string): string {
  return webshellReasons[reason][language].replace('{rule}', rule ?? '');
}
