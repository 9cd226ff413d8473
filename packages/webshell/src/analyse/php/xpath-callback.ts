/**
 * XPath/XSLT callbacks: `registerPHPFunctions()` with no list lets an XPath query or a stylesheet
 * call any PHP function (`php:functionString('system', ...)`). Code that uses the feature passes
 * the few functions it needs; allowing all of them, with the query or stylesheet naming a command
 * or code function, or with request input on the page, is a shell hidden in an XML API.
 */
import type { Signal } from '../../signals.ts';
import { medium, strong } from '../../signals.ts';

/** Called with no list, or named for a reflective call (`getMethod("registerPHPFunctions")`). */
const allowAll = /\bregisterPHPFunctions\s*\(\s*\)|["']registerPHPFunctions["']/i;
const dangerousCallback = /php:function(?:String)?\s*\(\s*\\?["'](?:system|exec|shell_exec|passthru|popen|proc_open|assert|create_function|call_user_func|file_put_contents|include)\\?["']/i;
const input = /\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\b|php:\/\/input/;

export function xpathCallbackSignal(text: string): Signal[] {
  const match = allowAll.exec(text);
  if (!match) return [];
  const named = dangerousCallback.test(text);
  const fromRequest = input.test(text);
  if (!named && !fromRequest) return [];
  return [{ reason: 'xpath_php_callback', weight: named && fromRequest ? strong : medium + 1, offset: match.index, length: match[0].length }];
}
