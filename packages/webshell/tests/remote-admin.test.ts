/**
 * The remote-administration detectors (issue 22): each shell-like fixture must be flagged for the
 * reason named, and its benign look-alike (the same API used the way applications use it) must
 * not be. Hand-written shapes, not copies of corpus samples.
 */
import { describe, expect, it } from 'vitest';
import { isFlaggedRisk } from '@rampart/contracts';
import { scanOne } from './support.ts';

/** The last field, when present: the look-alike is flagged by an older rule for another reason, so only this reason's absence is checked. */
type Case = [title: string, name: string, shell: string, reason: string, lookAlikeTitle: string, lookAlikeName: string, lookAlike: string, flaggedOtherwise?: true];

const cases: Case[] = [
  ['register_globals: a form field read as a plain variable and run', 'rg.php',
    `<?php if ($go) { system($cmd . ' 2>&1'); } ?><form method="post"><input type="text" name="cmd"><input type="submit" name="go"></form>`,
    'input_to_command',
    'a form whose field is never a variable of the page, fixed command', 'rg-ok.php',
    `<?php $uptime = shell_exec('uptime'); ?><form method="post"><input type="text" name="q"></form><p><?php echo htmlspecialchars($uptime); ?></p>`],
  ['a variable function picked among command functions, given input', 'pick.php',
    `<?php $c = $_POST['c']; if (function_exists('shell_exec')) $run = 'shell_exec'; elseif (function_exists('passthru')) $run = 'passthru'; else $run = 'system'; echo $run($c);`,
    'input_to_command',
    'a variable function picked among formatters, given input', 'pick-ok.php',
    `<?php $v = $_GET['v']; if (isset($_GET['upper'])) $fmt = 'strtoupper'; else $fmt = 'htmlspecialchars'; echo $fmt($v);`],
  ['ReflectionClass::newInstance runs a constructor that calls its argument', 'refl.php',
    `<?php class Job { function __construct($fn, $arg) { $fn($arg); } } $r = new ReflectionClass('Job'); $r->newInstance($_POST['a'], $_POST['b']);`,
    'input_to_variable_function',
    'ReflectionClass::newInstance of a value object built from input', 'refl-ok.php',
    `<?php class Point { function __construct($x, $y) { $this->x = (int) $x; $this->y = (int) $y; } } $r = new ReflectionClass('Point'); $p = $r->newInstanceArgs(array($_GET['x'], $_GET['y'])); echo $p->x;`],
  ['a PHP SQL client: credentials and query from the request', 'sql.php',
    `<?php $link = mysqli_connect($_POST['host'], $_POST['user'], $_POST['pass']); $res = mysqli_query($link, $_POST['sql']); while ($row = mysqli_fetch_row($res)) echo implode("\\t", $row), "\\n";`,
    'sql_client_from_request',
    'an application query with its own credentials and an escaped request value', 'sql-ok.php',
    `<?php $link = mysqli_connect('localhost', 'app', 'secret', 'shop'); $id = mysqli_real_escape_string($link, $_GET['id']); $res = mysqli_query($link, "SELECT name FROM items WHERE id = '$id'"); echo htmlspecialchars(mysqli_fetch_row($res)[0]);`],
  ['a PHP file manager: lists and reads any path the request names', 'fm.php',
    `<?php $p = isset($_GET['p']) ? $_GET['p'] : '/'; if (is_dir($p)) { foreach (scandir($p) as $f) echo "<a href='?p=$p/$f'>$f</a><br>"; } else { readfile($p); }`,
    'file_manager_from_request',
    'a gallery that lists and reads files under its own folder', 'fm-ok.php',
    `<?php $album = basename($_GET['album'] ?? 'main'); foreach (scandir(__DIR__ . '/albums/' . $album) as $f) echo htmlspecialchars($f); readfile(__DIR__ . '/albums/' . $album . '/cover.jpg');`],
  ['XPath allowed to call any PHP function, query from the request', 'xp.php',
    `<?php $d = new DOMDocument; $d->loadXML('<a/>'); $x = new DOMXPath($d); $x->registerNamespace('php', 'http://php.net/xpath'); $x->registerPHPFunctions(); $x->query("//a[php:functionString('system', '" . $_GET['c'] . "')]");`,
    'xpath_php_callback',
    'XPath allowed to call one named formatter', 'xp-ok.php',
    `<?php $d = new DOMDocument; $d->loadXML('<a>x</a>'); $x = new DOMXPath($d); $x->registerNamespace('php', 'http://php.net/xpath'); $x->registerPHPFunctions('strtoupper'); echo $x->evaluate("string(php:functionString('strtoupper', //a))"); echo htmlspecialchars($_GET['q'] ?? '');`],
  ['a safe-mode bypass: reads any file through a stream wrapper and globs any folder', 'wrap.php',
    `<?php $root = $_GET['root']; foreach (glob($root . '/*') as $f) echo $f, "\\n"; $tmp = tempnam('/tmp', 'x'); if (copy('compress.zlib://' . $_GET['file'], $tmp)) { readfile($tmp); unlink($tmp); }`,
    'file_manager_from_request',
    'a backup page copying a named export out of its own folder', 'wrap-ok.php',
    `<?php $name = basename($_GET['file']); foreach (glob(__DIR__ . '/exports/*.csv') as $f) echo basename($f); copy(__DIR__ . '/exports/' . $name, sys_get_temp_dir() . '/last.csv');`],
  ['LD_PRELOAD set before mail() starts sendmail', 'pre.php',
    `<?php file_put_contents('/tmp/x.so', base64_decode($_POST['so'])); putenv('LD_PRELOAD=/tmp/x.so'); putenv('CMD=' . $_POST['c']); mail('a@b', '', '', '');`,
    'ld_preload_bypass',
    'a mailer setting an ordinary environment variable', 'pre-ok.php',
    `<?php putenv('TZ=UTC'); $to = filter_var($_POST['to'], FILTER_VALIDATE_EMAIL); if ($to) mail($to, 'Hello', 'Welcome');`],
  ['an ASPX page writing a text box into the path another text box names', 'w.aspx',
    `<%@ Page Language="C#" %>\n<script runat="server">void Save(object s, EventArgs e) { var w = new System.IO.StreamWriter(path.Text, true); w.Write(body.Text); w.Close(); }</script><form runat="server"><asp:TextBox id="path" runat="server"/><asp:TextBox id="body" runat="server" TextMode="MultiLine"/></form>`,
    'input_written_to_script',
    'an ASPX guest book appending a text box to its own data file', 'w-ok.aspx',
    `<%@ Page Language="C#" %>\n<script runat="server">void Save(object s, EventArgs e) { var w = new System.IO.StreamWriter(Server.MapPath("~/App_Data/book.txt"), true); w.WriteLine(Server.HtmlEncode(body.Text)); w.Close(); }</script><form runat="server"><asp:TextBox id="body" runat="server"/></form>`],
  ['a PHP page reading the IIS anonymous account password from the metabase', 'iis.php',
    `<?php $s = new COM("IIS://localhost/w3svc/1/Root"); echo $s->AnonymousUserName, ':', $s->AnonymousUserPass;`,
    'iis_password_read',
    'a PHP status page listing IIS sites by name', 'iis-ok.php',
    `<?php $svc = new COM("IIS://localhost/w3svc"); foreach ($svc as $site) if (is_numeric($site->Name)) echo htmlspecialchars($site->ServerComment), "<br>";`],
  ['an ASPX SQL client: connection string and query from text boxes', 'sql.aspx',
    `<%@ Page Language="C#" %><script runat="server">void Run(object s, EventArgs e) { var c = new System.Data.SqlClient.SqlConnection(conn.Text); c.Open(); var cmd = new System.Data.SqlClient.SqlCommand(query.Text, c); grid.DataSource = cmd.ExecuteReader(); grid.DataBind(); }</script><form runat="server"><asp:TextBox id="conn" runat="server"/><asp:TextBox id="query" runat="server"/></form>`,
    'sql_client_from_request',
    'an ASPX search page: its own connection string, the request value as a parameter', 'sql-ok.aspx',
    `<%@ Page Language="C#" %><script runat="server">void Find(object s, EventArgs e) { var c = new System.Data.SqlClient.SqlConnection(ConfigurationManager.ConnectionStrings["shop"].ConnectionString); var cmd = new System.Data.SqlClient.SqlCommand("SELECT name FROM items WHERE name LIKE @q", c); cmd.Parameters.AddWithValue("@q", term.Text); c.Open(); grid.DataSource = cmd.ExecuteReader(); }</script><asp:TextBox id="term" runat="server"/>`],
  ['an ASPX download of any path the request names', 'dl.aspx',
    `<%@ Page Language="C#" %>\n<% string f = Request.QueryString["f"]; Response.ContentType = "application/octet-stream"; Response.WriteFile(f); %>`,
    'aspx_file_download',
    'an ASPX download under the application folder', 'dl-ok.aspx',
    `<%@ Page Language="C#" %><% string f = System.IO.Path.GetFileName(Request.QueryString["f"]); Response.WriteFile(Server.MapPath("~/downloads/" + f)); %>`],
  ['an ASPX upload saved under the uploader\'s own file name', 'up.aspx',
    `<%@ Page Language="C#" %><% if (Request.Files.Count > 0) { HttpPostedFile p = Request.Files[0]; p.SaveAs(Server.MapPath(".") + "\\\\" + System.IO.Path.GetFileName(p.FileName)); } %>`,
    'aspx_unchecked_upload',
    'an ASPX upload that checks the extension', 'up-ok.aspx',
    `<%@ Page Language="C#" %><% HttpPostedFile p = Request.Files[0]; string ext = System.IO.Path.GetExtension(p.FileName).ToLower(); if (ext == ".jpg" || ext == ".png") p.SaveAs(Server.MapPath("~/img/") + Guid.NewGuid() + ext); %>`],
  ['an ASHX handler feeding request lines to cmd.exe', 'sh.ashx',
    `<%@ WebHandler Language="C#" Class="H" %>\nusing System.Diagnostics; using System.Web;\npublic class H : IHttpHandler { public void ProcessRequest(HttpContext c) { var p = new Process(); p.StartInfo.FileName = "cmd.exe"; p.StartInfo.UseShellExecute = false; p.StartInfo.RedirectStandardInput = true; p.StartInfo.RedirectStandardOutput = true; p.Start(); p.StandardInput.WriteLine(c.Request["x"]); p.StandardInput.Close(); c.Response.Write(p.StandardOutput.ReadToEnd()); } public bool IsReusable { get { return false; } } }`,
    'interactive_shell',
    'an ASHX handler running a fixed tool with input on its standard input', 'sh-ok.ashx',
    `<%@ WebHandler Language="C#" Class="H" %>\nusing System.Diagnostics; using System.Web;\npublic class H : IHttpHandler { public void ProcessRequest(HttpContext c) { var p = new Process(); p.StartInfo.FileName = "C:\\tools\\wc.exe"; p.StartInfo.RedirectStandardInput = true; p.Start(); p.StandardInput.WriteLine("count"); c.Response.Write(Server.HtmlEncode(c.Request["x"])); } public bool IsReusable { get { return false; } } }`],
  ['a JSP page that starts /bin/sh and writes to it', 'sh.jsp',
    `<% Process p = Runtime.getRuntime().exec("/bin/sh"); java.io.OutputStream in = p.getOutputStream(); in.write((request.getParameter("c") + "\\n").getBytes()); in.flush(); %>`,
    'interactive_shell',
    'a JSP page that runs a fixed report script', 'sh-ok.jsp',
    `<% Process p = Runtime.getRuntime().exec(new String[] {"/usr/local/bin/report", "--daily"}); out.println(p.waitFor()); %>`,
    // jsp.ts rates any command a JSP page runs as medium on its own (a JSP page has no business running one).
    true],
  ['a JSP SQL client: JDBC URL and query from the request', 'sql.jsp',
    `<%@ page import="java.sql.*" %><% String url = request.getParameter("url"); Connection c = DriverManager.getConnection(url, request.getParameter("u"), request.getParameter("p")); ResultSet rs = c.createStatement().executeQuery(request.getParameter("sql")); while (rs.next()) out.println(rs.getString(1)); %>`,
    'sql_client_from_request',
    'a JSP page querying with its own JDBC URL and a bound parameter', 'sql-ok.jsp',
    `<%@ page import="java.sql.*" %><% Connection c = DriverManager.getConnection("jdbc:mysql://localhost/shop", "app", "secret"); PreparedStatement s = c.prepareStatement("SELECT name FROM items WHERE id = ?"); s.setString(1, request.getParameter("id")); ResultSet rs = s.executeQuery(); %>`],
];

describe('remote-administration detectors', () => {
  for (const [title, name, shell, reason, lookAlikeTitle, lookAlikeName, lookAlike, flaggedOtherwise] of cases) {
    it(`flags ${title}`, async () => {
      const result = await scanOne(name, shell);
      expect(result.status).toBe('scanned');
      expect(isFlaggedRisk(result.risk), JSON.stringify(result.findings)).toBe(true);
      expect(result.findings.map((f) => f.reason)).toContain(reason);
    });
    it(`does not flag ${lookAlikeTitle}`, async () => {
      const result = await scanOne(lookAlikeName, lookAlike);
      expect(result.status).toBe('scanned');
      expect(result.findings.map((f) => f.reason)).not.toContain(reason);
      if (!flaggedOtherwise) expect(['none', 'low'], JSON.stringify(result.findings)).toContain(result.risk);
    });
  }
});
