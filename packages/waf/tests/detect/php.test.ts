import { describe, expect, it } from 'vitest';
import { findCalls } from '../../src/detect/php/calls.ts';
import { detectPhpInjection } from '../../src/detect/php/index.ts';
import { lexPhp } from '../../src/detect/php/lex.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('PHP lexer and call reader', () => {
  it('drops comments and decodes string escapes', () => {
    const tokens = lexPhp('exec /*x*/ # y\n ("\\x73y\\163tem")');
    expect(tokens.map((t) => t.text)).toEqual(['exec', '(', 'system', ')']);
    expect(tokens[1]!.commented).toBe(true);
  });
  it('evaluates callees assembled from strings, brackets, casts and constants', () => {
    const name = (code: string) => findCalls(lexPhp(code)).map((c) => c.name || c.shape);
    expect(name('"sys"."tem"("id")')).toContain('system');
    expect(name('[system][0](ls)')).toContain('system');
    expect(name('(string)"system"("id")')).toContain('system');
    expect(name("define('x', 'sys' . 'tem');(x)('uname')")).toContain('system');
    expect(name('(sy.(st).em)(@id)')).toContain('system');
    expect(name('$__["o"](5)')).toContain('variable');
    expect(name('$db->query("x")')).toEqual([]);
  });
});

describe('PHP injection detector', () => {
  checkAttacks(detectPhpInjection, 'cmdi', [
    // open tags with code
    { value: '<?php system($_GET["c"]); ?>', rule: 'php.open_tag' },
    { value: '<?= `id` ?>' },
    { value: '<? echo 1;' },
    { value: '<?xml:echo 1;' },
    { value: '<?xml :fputcsv($f, array("a"));' },
    { value: '[php]echo "test";[/php]', rule: 'php.bbcode_tag' },
    // calls: evasion shapes
    { value: 'exec /*comment*/ (blah)', rule: 'php.commented_call' },
    { value: 'exec #c\n (blah)' },
    { value: 'checkdate/*x*/()' },
    { value: '"system"(ls);', rule: 'php.assembled_callee' },
    { value: '(string)"sys"."t"."em" ("uname");' },
    { value: '[ system ] [ 0 ] ( ls );' },
    { value: "define('z', [['sys' .'tem']]);(z)[0][0]('uname');" },
    { value: '"\\x73y\\x73tem"(ls);' },
    { value: 'return"system"(xyz).s' },
    // calls: the whole value is a call to a dangerous function
    { value: 'base64_decode()', rule: 'php.function_call' },
    { value: 'base64_decode(' },
    { value: 'shell_exec("id")' },
    { value: '@system("id");' },
    { value: 'pfsockopen("foo", 25)' },
    { value: 'get_defined_vars()[0]' },
    { value: "x';system('id');//" },
    // variable functions
    { value: '$a(1)', rule: 'php.variable_function' },
    { value: '$$b(2)' },
    { value: '@$__[o](4)' },
    { value: '${@a}(10)' },
    { value: '$OOO0000O0 (16)' },
    { value: '$b374k=@$s_func(22)' },
    { value: '$foo->$funcname()' },
    { value: 'Foo::$variable()' },
    { value: '$f(101).$f(120)' },
    // variable variables, superglobals
    { value: "${'ff'}", rule: 'php.variable_variable' },
    { value: '$   {$a}' },
    // blanks between `$` and the brace, with nothing else in the value that looks like PHP
    { value: "$ {'fdf'}" },
    { value: "$ {'_VAR'.'IABLE_NAME'}" },
    { value: '$     {   CONSTANT   }' },
    // a call with its arguments is code in a path too
    { value: "system('id')", location: 'path' },
    { value: '$_COOKIE', location: 'query_name', rule: 'php.superglobal' },
    { value: "$_SERVER['REQUEST_URI']" },
    // serialized objects
    { value: 'O:8:"stdClass":0:{}', rule: 'php.serialized_object' },
    { value: 'a:1:{i:0;O:+9:"SimplePie":1:{s:1:"x";i:1;}}' },
    { value: '_|O:32:"Monolog\\Handler\\SyslogUdpHandler":1:{s:9:"x";i:1;}' },
    // ini directives
    { value: 'allow_url_include=1', rule: 'php.ini_directive' },
    { value: '-d auto_prepend_file=php://input' },
    { value: '-d allow_url_include', location: 'query_name' },
    { value: 'opcache.jit_max_polymorphic_calls=50' },
    { value: 'memory_limit = 512M' },
  ]);
  it('flags uploads named like PHP session files', () => {
    expect(detectPhpInjection('sess_d8ew88tqmabdcokhumchy8htqm', 'file_name')?.rule).toBe('php.session_file_upload');
    expect(detectPhpInjection('/tmp/sess_abc123,def456,ghi789jkl', 'header', 'X-File-Name')?.severity).toBe(2);
    expect(detectPhpInjection('sess_short', 'file_name')).toBeNull();
    expect(detectPhpInjection('my_sess_data_0123456789012345.txt', 'file_name')).toBeNull();
    expect(detectPhpInjection('sess_d8ew88tqmabdcokhumchy8htqm', 'header', 'X-Request-Id')).toBeNull();
  });
  checkBenign(detectPhpInjection, [
    // prose with function names and parentheses
    { value: 'the files (yep)' },
    // titles and searches that start with a call and go on in words
    { value: 'system() vs exec() in PHP', below: 2 },
    { value: 'eval() is evil', below: 2 },
    { value: 'file_get_contents() returns false', below: 2 },
    { value: '$_POST is empty after submit', below: 2 },
    { value: 'How to use base64_decode() in PHP' },
    { value: 'print_r($array) shows nothing', below: 2 },
    { value: '$_SERVER["HTTP_HOST"] is empty', below: 2 },
    { value: 'const fs = require("fs")', below: 2 },
    { value: 'strlen($str) > 10', below: 2 },
    { value: 'file (how I overlooked this after all of this' },
    { value: 'system (as described in the manual)' },
    { value: 'exec (', below: 2 },
    { value: 'system(s)', below: 2 },
    { value: 'executor()' },
    { value: 'cheval($foo)' },
    { value: 'the system is down()' },
    { value: 'ecosystem()' },
    { value: 'systems()' },
    { value: 'system something()' },
    { value: 'I will call system() in PHP later', location: 'body' },
    { value: 'Moreover, phpinfo can leak configuration', location: 'body' },
    { value: 'A loaded gun (unserialized) was recovered' },
    { value: 'link(s) to the file(s)' },
    { value: 'See [link](https://example.com) and [file](docs/file.md)' },
    { value: 'Price: $5 (approx)' },
    { value: 'costs $ 5 (five)' },
    { value: "$('#menu').toggle()" },
    { value: '${price} (incl. tax)' },
    { value: 'Hello ${name}' },
    { value: '$a[]()' },
    { value: '${}()' },
    { value: '$a{}()' },
    { value: '$ { }' },
    { value: 'Total: $ 12 {approx}' },
    // a page title cut at its parenthesis, in a path: suspicious at most
    { value: 'eval(', location: 'path', below: 2 },
    { value: 'system(', location: 'path', below: 2 },
    { value: 'checkdate' },
    { value: 'symlink#x()' },
    { value: 're.exec(text)' },
    { value: 'const m = pattern.exec(line);' },
    // XML declarations and other processing instructions
    { value: '<?xml version="1.0" encoding="UTF-8"?><a/>' },
    { value: '<?xml-stylesheet type="text/xsl" href="a.xsl"?>' },
    { value: '<?mso-application progid="Word.Document"?>' },
    // serialized arrays (WordPress options) and look-alikes
    { value: 'a:2:{i:0;s:3:"foo";i:1;s:3:"bar";}' },
    { value: 'O:8:"stdClassX":0:{}' },
    { value: 'FOO:8:"stdClass":0:{}' },
    // key=value that is not a php.ini directive, or is one only in a sentence
    { value: 'color=blue' },
    { value: 'session.id=abc' },
    { value: 'set memory_limit = 512M in php.ini and restart', location: 'body' },
    { value: 'engine=true', below: 2 },
    // built-in functions alone are probes at most
    { value: 'substr()', below: 2 },
    { value: 'printf(foo)', below: 2 },
    { value: 'is_array()', below: 2 },
    // PHP in a post is suspicious only
    {
      value: 'My form does not work.\n\n```php\n<?php\n$name = $_POST["name"];\necho htmlspecialchars($name);\n```\n\nAny idea?',
      location: 'body',
      below: 2,
    },
  ]);
  checkRobust(detectPhpInjection);
});

describe('PHP injection detector: a whole value that is one bare call', () => {
  checkAttacks(detectPhpInjection, 'cmdi', [
    // a dangerous name glued after capitals
    { value: 'FOOcall_user_func()', rule: 'php.function_call' },
    { value: 'FOOGzInFlAtE()' },
    { value: 'X1fsockopen("h", 80)' },
    // an extension's function probed alone: suspicious (strict mode)
    { value: 'pg_enter_pipeline_mode (', severity: 1, rule: 'php.function_call' },
    { value: 'ldap_get_entries()', severity: 1 },
    { value: 'sodium_crypto_aead_chacha20poly1305_ietf_keygen (', location: 'xml', severity: 1 },
    { value: 'odbc_connection_string_should_quote(', location: 'body_name', severity: 1 },
    // a dangerous compound name handed an argument list across an `=`: suspicious (strict mode)
    { value: 'Shell_exec=(bla)', location: 'body', severity: 1, rule: 'php.function_call' },
    { value: 'ZlIb_DeCoDe=(bla)', location: 'body', severity: 1 },
    { value: 'base64_decode = ($x)', severity: 1 },
    { value: 'call_user_func=(', severity: 1 },
  ]);
  checkBenign(detectPhpInjection, [
    { value: 'maybe_unserialize()' }, // WordPress's own function
    { value: 'my_array_filter()' },
    { value: 'job_start()' },
    { value: 'camelCallUserFunc()' },
    { value: 'sodium_add_to_recipe(foo)' }, // no such function: sodium_ alone is not an extension prefix here
    { value: 'mb_strlen is slow' },
    { value: 'pg_dump (the tool) keeps failing' },
    { value: 'Use ldap_get_entries() after ldap_search()', location: 'body', below: 2 },
    { value: 'curl_setopt($ch, CURLOPT_URL, $url);', location: 'body', below: 2 },
    // names alone or bound to a group without an underscore, a setting, a sentence, a documentation search
    { value: 'shell_exec' },
    { value: 'base64_decode' },
    { value: 'exec=(1)' },
    { value: 'my_shell_exec=(x)' },
    { value: 'sort_order=(asc)' },
    { value: 'shell_exec=(bla) is disabled on my host', location: 'body' },
    { value: 'Is shell_exec disabled?' },
  ]);
});
