// Rampart web-shell rules: ASP and ASP.NET
// licence: the Rampart project's own licence (written for Rampart; not derived from any third-party rule set)
// version: rampart-webshell-2026.06.1
// languages: asp aspx
//
// Generic behaviour: Execute/Eval of request text, command objects, processes started with request
// text, assemblies loaded from the request.

rule asp_execute_request
{
    meta:
        description = "Execute / ExecuteGlobal / Eval of Request in one expression"
        risk = "high"
    strings:
        $a = /\b(execute|executeglobal|eval)\s*\(?\s*(\w+\s*\(\s*)?request\s*(\.\s*(form|querystring|item|params))?\s*[\(\[]/ nocase
        $b = /\beval\s*\([^\r\n]{1,200}["']unsafe["']\s*\)/ nocase
    condition:
        any of them
}

rule asp_shell_object
{
    meta:
        description = "CreateObject of WScript.Shell / Shell.Application with request input"
        risk = "high"
    strings:
        $obj = /CreateObject\s*\(\s*["'](wscript\.shell|shell\.application)["']/ nocase
        $req = /request\s*[\.\(\[]/ nocase
    condition:
        $obj and $req
}

rule aspx_process_request
{
    meta:
        description = "Process.Start / ProcessStartInfo with request input"
        risk = "high"
    strings:
        $p1 = /Process\s*\.\s*Start\s*\(/
        $p2 = "ProcessStartInfo"
        $req = /Request\s*(\.\s*(Form|QueryString|Params|Item)|\[)/
    condition:
        any of ($p*) and $req
}

rule aspx_assembly_from_request
{
    meta:
        description = "Assembly.Load of bytes decoded from the request"
        risk = "high"
    strings:
        $load = /Assembly\s*\.\s*Load\s*\(/
        $b64 = /Convert\s*\.\s*FromBase64String/
        $req = /Request\s*(\.\s*(Form|QueryString|Params|Item|BinaryRead|InputStream)|\[)/
    condition:
        all of them
}
