// Rampart web-shell rules: PHP
// licence: the Rampart project's own licence (written for Rampart; not derived from any third-party rule set)
// version: rampart-webshell-2026.06.1
// languages: php
//
// Generic behaviour only: user input handed to an interpreter, decoders feeding eval, input used
// as a function name, back-connect shells. No rule is keyed to a sample's name, hash or unique
// strings. The deeper flow analysis (variables, functions, obfuscation) is in src/analyse/php.

rule php_input_to_eval
{
    meta:
        description = "eval/assert of request input in one expression"
        risk = "high"
    strings:
        $a = /\b(eval|assert)\s*\(\s*(@\s*)?((stripslashes|trim|urldecode|base64_decode|str_rot13|gzinflate|gzuncompress|hex2bin)\s*\(\s*)*(@\s*)?\$_(GET|POST|REQUEST|COOKIE|SERVER\s*\[\s*['"]HTTP_)/ nocase
    condition:
        $a
}

rule php_input_to_command
{
    meta:
        description = "system/exec/passthru/shell_exec/popen/proc_open of request input in one expression"
        risk = "high"
    strings:
        $a = /\b(system|passthru|shell_exec|exec|popen|proc_open|pcntl_exec)\s*\(\s*(@\s*)?((stripslashes|trim|urldecode|base64_decode)\s*\(\s*)*\$_(GET|POST|REQUEST|COOKIE|SERVER\s*\[\s*['"]HTTP_)/ nocase
    condition:
        $a
}

rule php_decoded_eval
{
    meta:
        description = "eval of decoded data (base64, gzip, rot13, reversed strings)"
        risk = "high"
    strings:
        $a = /\beval\s*\(\s*(@\s*)?(gzinflate|gzuncompress|gzdecode|base64_decode|str_rot13|strrev|convert_uudecode|hex2bin)\s*\(/ nocase
        $b = /\bassert\s*\(\s*(@\s*)?(gzinflate|gzuncompress|gzdecode|base64_decode|str_rot13|strrev|convert_uudecode)\s*\(/ nocase
    condition:
        any of them
}

rule php_input_as_function
{
    meta:
        description = "request input called as a function: $_POST['x']($_POST['y'])"
        risk = "high"
    strings:
        $a = /\$_(GET|POST|REQUEST|COOKIE)\s*\[[^\]\r\n]{1,40}\]\s*\(/
        $b = /\$\{\s*["']_(GET|POST|REQUEST|COOKIE)["']\s*\}\s*\[[^\]\r\n]{1,40}\]\s*\(/
    condition:
        any of them
}

rule php_preg_replace_eval
{
    meta:
        description = "preg_replace with the /e modifier (code execution, removed in PHP 7)"
        risk = "medium"
    strings:
        $a = /preg_replace\s*\(\s*["']([\/#|~!@%])[^\r\n]{0,120}[\/#|~!@%][imsxuADSUX]*e[imsxuADSUX]*["']\s*,/
    condition:
        $a
}

rule php_back_connect
{
    meta:
        description = "opens a socket and hands it to a shell (reverse or bind shell)"
        risk = "high"
    strings:
        $sock1 = "fsockopen" nocase
        $sock2 = "socket_create" nocase
        $sock3 = "stream_socket_server" nocase
        $sh1 = "/bin/sh" nocase
        $sh2 = "/bin/bash" nocase
        $sh3 = "cmd.exe" nocase
        $run1 = "proc_open" nocase
        $run2 = "shell_exec" nocase
        $run3 = "passthru" nocase
        $run4 = "popen" nocase
        $php = "<?" 
    condition:
        $php and any of ($sock*) and any of ($sh*) and any of ($run*)
}

rule php_upload_and_run
{
    meta:
        description = "a page that takes uploads, runs commands and reports server facts: the web-shell toolkit"
        risk = "medium"
    strings:
        $php = "<?"
        $up = "move_uploaded_file" nocase
        $cmd1 = /\b(shell_exec|passthru|proc_open|popen)\s*\(/ nocase
        $cmd2 = /\bsystem\s*\(\s*\$/ nocase
        $info1 = "php_uname" nocase
        $info2 = "disable_functions" nocase
        $info3 = "safe_mode" nocase
        $info4 = "posix_getpwuid" nocase
        $info5 = "disk_free_space" nocase
        $in = /\$_(POST|GET|REQUEST)\s*\[/
    condition:
        $php and $up and any of ($cmd*) and 3 of ($info*) and $in
}
