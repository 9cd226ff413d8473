// Rampart web-shell rules: JSP
// licence: the Rampart project's own licence (written for Rampart; not derived from any third-party rule set)
// version: rampart-webshell-2026.06.1
// languages: jsp
//
// Generic behaviour: request parameters reaching Runtime.exec or ProcessBuilder, classes defined
// from decoded bytes, script engines evaluating request text.

rule jsp_request_to_exec
{
    meta:
        description = "Runtime.exec / ProcessBuilder and request parameters in one JSP page"
        risk = "high"
    strings:
        $exec1 = /Runtime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*exec\s*\(/
        $exec2 = /new\s+ProcessBuilder\s*\(/
        $req = /request\s*\.\s*get(Parameter|Header|InputStream|Reader)\s*\(/
        $jsp = "<%"
    condition:
        $jsp and any of ($exec*) and $req
}

rule jsp_define_class_from_bytes
{
    meta:
        description = "defineClass of decoded or decrypted bytes (memory-resident shells)"
        risk = "high"
    strings:
        $def = /defineClass\s*\(/
        $dec1 = "BASE64Decoder"
        $dec2 = /Base64\s*\.\s*getDecoder/
        $dec3 = /Cipher\s*\.\s*getInstance/
        $dec4 = "decodeBuffer"
        $dec5 = "parseBase64Binary"
    condition:
        $def and any of ($dec*)
}

rule jsp_script_engine_request
{
    meta:
        description = "a script engine evaluating request text"
        risk = "high"
    strings:
        $eng = "ScriptEngineManager"
        $eval = /\.\s*eval\s*\(/
        $req = /request\s*\.\s*getParameter\s*\(/
    condition:
        all of them
}
