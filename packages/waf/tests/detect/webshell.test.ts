import { describe, expect, it } from 'vitest';
import { detectWebshell } from '../../src/detect/webshell/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('web-shell upload detector: file names', () => {
  checkAttacks(
    detectWebshell,
    'webshell_upload',
    [
      { value: 'shell.php.jpg', rule: 'webshell.double_extension' },
      { value: 'avatar.jsp.png' },
      { value: 'x.phtml', rule: 'webshell.script_upload' },
      { value: 'x.php5' },
      { value: 'x.PHAR' },
      { value: 'cmd.jspx' },
      { value: 'cmd.aspx' },
      { value: 'cmd.asa' },
      { value: '.htaccess', rule: 'webshell.config_file_upload' },
      { value: '.user.ini' },
      { value: 'web.config' },
      { value: 'shell.php.', rule: 'webshell.extension_trick' },
      { value: 'shell.php ' },
      { value: 'shell.asp;.jpg' },
      { value: 'shell.php%00.png' },
      { value: 'shell.php\u0000.png' },
      { value: 'shell.php::$DATA' },
      { value: '../../var/www/html/x.php' },
      { value: 'run.sh', severity: 1 },
      // any version digits after "php", and PHP source files
      { value: 'fthi/sfewfda.php907.............', rule: 'webshell.extension_trick' },
      { value: 'dangerous.phps', rule: 'webshell.script_upload' },
      { value: 'x.php10.png', rule: 'webshell.double_extension' },
      // PHP's test-file format holds PHP source: suspicious (strict mode)
      { value: 'dangerous.phpt', severity: 1, rule: 'webshell.script_upload' },
    ],
    'file_name',
  );
  checkBenign(
    detectWebshell,
    [
      { value: 'photo.jpg' },
      { value: 'C:\\fakepath\\report.pdf' },
      { value: 'archive.tar.gz' },
      { value: 'my.resume.v2.docx' },
      { value: 'phpinfo-screenshot.png' },
      { value: 'php8-release-notes.pdf' },
      { value: 'my.php.notes.txt.zip', location: 'query' },
      { value: 'phps-guide.md' },
      { value: 'phpt-format.md' },
      { value: 'tests.phpt.txt' },
      { value: 'shell.php.jpg', location: 'query' },
    ],
    'file_name',
  );
});

describe('web-shell upload detector: content', () => {
  checkAttacks(
    detectWebshell,
    'webshell_upload',
    [
      { value: '<?php eval($_POST["x"]); ?>', rule: 'webshell.php_obfuscated_exec' },
      { value: '<?php @assert($_REQUEST[\'c\']); ?>' },
      { value: '<?php @eval(base64_decode("ZWNobyAxOw==")); ?>' },
      { value: '<?php eval(gzinflate(base64_decode("8zJT8/IB"))); ?>' },
      { value: '<?php preg_replace("/.*/e", $_GET["c"], ""); ?>' },
      { value: '<?php $_GET["f"]($_GET["a"]); ?>' },
      { value: 'GIF89a<?php system($_GET[c]); ?>', rule: 'webshell.php_input_exec' },
      { value: '<?= `$_GET[x]` ?>' },
      { value: '<?php $c=$_COOKIE["c"]; passthru($c); ?>' },
      { value: '<% Runtime.getRuntime().exec(request.getParameter("cmd")); %>', rule: 'webshell.jsp_exec' },
      { value: '<%@ page import="java.io.*" %><% Process p = new ProcessBuilder(request.getParameter("c")).start(); %>' },
      { value: '<%@ Page Language="C#" %><% System.Diagnostics.Process.Start("cmd.exe", Request["c"]); %>', rule: 'webshell.asp_exec' },
      { value: '<%@ Page Language="Jscript"%><%eval(Request.Item["pass"],"unsafe");%>' },
      { value: '<% Set o = Server.CreateObject("WScript.Shell") : o.Exec(Request("c")) %>' },
      { value: '<?php eval($_POST["x"]); ?>', location: 'raw_body' },
      { value: '<?php eval($_POST["x"]); ?>', location: 'body', severity: 1 },
    ],
    'file_content',
  );
  checkBenign(
    detectWebshell,
    [
      { value: '<?php echo "hello"; ?>' },
      { value: '<?php $x = htmlspecialchars($_GET["q"]); echo $x; ?>' },
      { value: '<% out.println("hi"); %>' },
      { value: '<html><body>plain page</body></html>' },
      { value: '\u0089PNG\r\n\u001a\n binary image data' },
      { value: 'Never write <?php eval($_POST["x"]); ?> in your code!', location: 'body', below: 2 },
    ],
    'file_content',
  );
  checkRobust(detectWebshell);
});

describe('web-shell upload detector: names that replace configuration, credentials or kernel files', () => {
  checkAttacks(
    detectWebshell,
    'webshell_upload',
    [
      { value: '.boto', rule: 'webshell.restricted_file_upload' },
      { value: '.env' },
      { value: '.env.production' },
      { value: 'authorized_keys' },
      { value: 'mtrr' },
      { value: 'acpi' },
      { value: 'sysrq-trigger' },
      { value: 'wp-config-php.bak' },
      { value: 'wp-config_php.txt' },
      { value: '../../.bashrc' },
      // framework configuration: suspicious (strict mode), a developer tool may take it honestly
      { value: 'config.yml', severity: 1, rule: 'webshell.restricted_file_upload' },
      { value: 'config.yml ', severity: 1 },
      { value: 'routing.yml', severity: 1 },
      { value: 'local.xml', severity: 1 },
      // a script name stays a script upload
      { value: 'settings.php', rule: 'webshell.script_upload' },
    ],
    'file_name',
  );
  checkBenign(
    detectWebshell,
    [
      // the names inside longer names (CRS's own must-pass tests)
      { value: 'abc.botox.jpg' },
      { value: 'amtrra.jpg' },
      { value: 'JACpic.jpg' },
      { value: 'acpi-spec.pdf' },
      { value: 'environment.png' },
      { value: 'my-config.yml.txt' },
      { value: 'wp-config-sample.txt' },
      { value: 'config.yaml.png' },
    ],
    'file_name',
  );
  it('reads the name an upload API sends in X-Filename, and no other header', () => {
    expect(detectWebshell('mtrr', 'header', 'X-Filename')?.severity).toBe(2);
    expect(detectWebshell('config.yml ', 'header', 'X-File-Name')?.severity).toBe(1);
    expect(detectWebshell('mtrr', 'header', 'X-Request-Id')).toBeNull();
  });
});
