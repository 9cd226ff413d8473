/**
 * Shapes real frameworks use every day must not be flagged: one weak signal never makes a shell.
 */
import { describe, expect, it } from 'vitest';
import { scanOne } from './support.ts';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const pngBase64 = Buffer.concat([png, Buffer.alloc(2000, 7)]).toString('base64');

const benign: Record<string, [name: string, content: string]> = {
  'eval of a constant': ['a.php', `<?php eval('return 1 + 2;'); eval("\\$x = array();");`],
  'base64 of an image, echoed': ['b.php', `<?php header('Content-Type: image/png'); echo base64_decode('${pngBase64}');`],
  'exec of a fixed command': ['c.php', `<?php exec('ls -la /var/log', $out, $rc); $v = shell_exec('uname -r'); echo \`whoami\`;`],
  'plugin loader including constant paths': ['d.php', `<?php
define('PLUGIN_DIR', __DIR__ . '/plugins');
foreach (array('cache', 'seo', 'forms') as $name) { include_once PLUGIN_DIR . '/' . $name . '/main.php'; }
require __DIR__ . '/vendor/autoload.php';`],
  'template engine calling a method named in config': ['e.php', `<?php
class View {
  private $config;
  public function __construct(array $config) { $this->config = $config; }
  public function render($name, array $vars) {
    $filter = $this->config['filters'][$name] ?? 'htmlspecialchars';
    $helper = array($this, $this->config['helper']);
    $out = call_user_func($helper, $vars);
    return call_user_func_array($filter, array($out));
  }
}
$view = new View(require 'config.php');
echo $view->render($_GET['page'] ?? 'home', array('title' => $_GET['title'] ?? ''));`],
  'a router calling a handler from a table': ['f.php', `<?php
$routes = array('home' => 'show_home', 'about' => 'show_about');
$page = isset($_GET['p']) && isset($routes[$_GET['p']]) ? $_GET['p'] : 'home';
$handler = $routes['home'];
$handler();
usort($items, function ($a, $b) { return $a <=> $b; });
array_map('intval', $_POST['ids'] ?? array());`],
  'escaped input to a command': ['g.php', `<?php $file = escapeshellarg($_GET['f']); system('file ' . $file);`],
  'preg_replace without /e and input': ['h.php', `<?php echo preg_replace('/[^a-z0-9]/i', '', $_GET['slug']); echo preg_replace_callback('/x/', 'strtoupper', $_POST['t']);`],
  'a library decoding base64 data': ['i.php', `<?php
function decode_token($t) { return json_decode(base64_decode(strtr($t, '-_', '+/')), true); }
$data = decode_token($_COOKIE['session'] ?? '');
$raw = gzinflate(substr($blob, 10));`],
  'assert of an expression': ['j.php', '<?php assert($count > 0); assert(is_array($list), "list expected");'],
  'upload handler that checks the extension': ['k.php', `<?php
$ext = strtolower(pathinfo($_FILES['f']['name'], PATHINFO_EXTENSION));
if (in_array($ext, array('jpg', 'png'), true)) move_uploaded_file($_FILES['f']['tmp_name'], '/srv/up/' . md5(uniqid()) . '.' . $ext);`],
  // Look-alikes of the constant-evaluation and state-taint shells.
  'XOR of strings in a checksum, a callable table of safe names': ['l.php', `<?php $mask = 'ab' ^ 'cd'; $f = substr_replace('strtoupper', 'lower', 3); echo $f($_GET['q']); $fmt['k'] = 'intval'; $list[] = $fmt; echo $list[0]['k']($_GET['n']);`],
  'a helper called with a bare-word callback of a safe function': ['m.php', `<?php function apply($f, $v) { return $f($v); } echo apply(htmlspecialchars, $_GET['t']);`],
  'eval of constant code built from pieces': ['n.php', `<?php $code = 'return ' . '1 + 2' . ';'; echo eval($code);`],
  'reflection of a constant class method': ['o.php', `<?php $m = new ReflectionMethod('Foo', 'bar'); echo $m->getName(); echo htmlspecialchars($_GET['x']);`],
  'request values in properties, escaped before a command': ['p.php', `<?php class Job { private $file; function __construct() { $this->file = escapeshellarg($_POST['f']); $this->limit = intval($_GET['n']); } function run() { system('gzip ' . $this->file); } }`],
  'a global config array read in functions': ['q.php', `<?php $GLOBALS['config'] = array('cmd' => 'uptime'); function up() { return shell_exec($GLOBALS['config']['cmd']); } echo htmlspecialchars($_GET['q'] ?? '');`],
  'characters of a constant string, an appended constant, defaults extracted': ['r.php', `<?php $hex = '0123456789abcdef'; $out = $hex[$n >> 4] . $hex[$n & 15]; $sql = 'SELECT 1'; $sql .= ' FROM t'; extract(array('title' => 'Home')); foreach (array('a', 'b') as $k) { $$k = 0; } echo htmlspecialchars($_GET['q'] ?? '') . $title . $out;`],
  'minified JavaScript': ['app.min.js', '!function(e,t){"use strict";var n=function(e){return eval("("+e+")")};e.exec=function(c){return new Function(c)()};t.a=atob("aGVsbG8=")}(window,{});var q=document.location.search;'],
  'a JSP page that only reads parameters': ['a.jsp', '<%@ page contentType="text/html" %><% String name = request.getParameter("name"); out.println(name == null ? "" : name.replace("<", "&lt;")); %>'],
  'an ASP page with a form': ['a.asp', '<% Dim n : n = Request.Form("name") : Response.Write Server.HTMLEncode(n) %>'],
  'a JSP page saving an upload under a fixed name': ['b.jsp', `<% String name = request.getParameter("title"); java.io.FileOutputStream o = new java.io.FileOutputStream(application.getRealPath("/data/notes.txt")); o.write(("note: " + name.length()).getBytes()); o.close(); out.println("saved"); %>`],
  'a JSP page that calls a method named exec on its own DAO': ['c.jsp', `<% String q = request.getParameter("q"); Dao d = new Dao(); d.run("exec", q); out.println(d.count()); %>`],
  'an ASP page copying request values between variables': ['b.asp', '<% dim a, b\na = Request.Form("name")\nb = a\nResponse.Write Server.HTMLEncode(b) %>'],
  'an ASP page printing Chr-built text': ['c.asp', '<% Response.Write(Chr(72) & Chr(105) & " " & Request.QueryString("n")) %>'],
  'an ASPX page with a text box and a safe process': ['b.aspx', `<%@ Page Language="VB" %><script runat="server">Sub Go(s As Object, e As EventArgs)\nDim p As New Process()\np.StartInfo.FileName = "C:\\tools\\report.exe"\np.Start()\nlabel.Text = "started for " & Server.HtmlEncode(who.Text)\nEnd Sub</script><asp:TextBox id="who" runat="server"/>`],
  'a PNG image': ['logo.png', png.toString('latin1') + '<%'],
};

describe('does not flag benign shapes', () => {
  for (const [title, [name, content]] of Object.entries(benign)) {
    it(title, async () => {
      const result = await scanOne(name, Buffer.from(content, 'latin1'));
      expect(result.status).toBe('scanned');
      expect(['none', 'low'], JSON.stringify(result.findings)).toContain(result.risk);
    });
  }
});
