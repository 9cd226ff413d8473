/**
 * Which PHP files are worth parsing. Most of a framework has no request input, no decoder, no
 * string built from pieces and no packed literal; such a file can give no signal above weak (see
 * the weights in signals.ts), so parsing it would cost time and change no verdict. Signatures
 * still run on every file. Deliberately broad: a false "worth it" costs a parse, a false "not
 * worth it" would cost a detection.
 */
const worthParsing = new RegExp([
  // request input of any spelling: $_GET, ${'_GET'}, $GLOBALS['_POST'], HTTP_*_VARS, php://input, headers, env
  '_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES|ENV)\\b', 'HTTP_\\w+_VARS', 'HTTP_RAW_POST_DATA', 'php://', 'getallheaders', 'request_headers', 'getenv', 'filter_input',
  // decoders and character arithmetic
  'base64_decode', 'gzinflate', 'gzuncompress', 'gzdecode', 'str_rot13', 'strrev', 'hex2bin', 'convert_uu', 'bzdecompress', '\\bchr\\s*\\(', '\\bpack\\s*\\(',
  // strings glued from literal pieces ('ba'.'se64'), variable variables, packed literals
  '[\'"]\\s*\\.\\s*[\'"]', '\\$\\{', '\\$\\$', '[A-Za-z0-9+/=]{600}',
].join('|'), 'i');

export const isWorthParsing = (text: string): boolean => worthParsing.test(text);
