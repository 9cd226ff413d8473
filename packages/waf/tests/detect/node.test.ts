import { describe, expect, it } from 'vitest';
import { detectNodeInjection } from '../../src/detect/node/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('server-side JavaScript injection detector', () => {
  checkAttacks(detectNodeInjection, 'cmdi', [
    // serialized functions
    { value: '{"rce":"_$$ND_FUNC$$_function(){require(\'child_process\').exec(\'id\')}()"}', rule: 'node.serialized_function' },
    { value: '_$$ND_FUNC$$_' },
    { value: '{"__js_function":"function(){return 1}"}' },
    // reaching the process
    { value: '#{process.binding(foo).spawn(foo2)}', rule: 'node.process_reach' },
    { value: "#{require.main.constructor._load('child_process').fork('x')}" },
    { value: 'this.constructor.constructor("return process")()' },
    { value: 'this.constructor.constructor' },
    { value: "x['constructor']['constructor']('return this')()" },
    { value: 'process.mainModule.require("child_process")' },
    { value: 'global.process.mainModule' },
    { value: 'process[req.query.a' },
    { value: 'require[req.query.a]' },
    { value: 'process["env"]' },
    { value: "require('child_process').execSync('id')" },
    { value: "x=require('fs').readFileSync('/etc/passwd')" },
    { value: "see require('vm').runInThisContext(code)" },
    { value: 'new Function ("return process")', rule: 'node.function_constructor' },
    { value: 'Function("return this")()' },
    // a whole value that is an eval probe on a Node global
    // console.log(x) alone is a developer's search too: only suspicious; computed or re-called it is a probe
    { value: 'console.info(1)', severity: 1 },
    { value: 'console["info"](1)' },
    { value: 'console.info.call(this,1)' },
    { value: 'module.exports=' },
    { value: 'function() {', rule: 'node.function_literal' },
    // React Server Components references
    { value: '{"then":"$1:__proto__:then","_formData":{"get":"$3:constructor:constructor"}}', rule: 'node.flight_reference' },
    // a reference path with no JavaScript word in it (Module, then, _compile)
    { value: '{"reason":{"0":"$7:Module:prototype","toString":"$b:pop"},"value":"{\\"then\\":\\"$b:map\\"}"}', rule: 'node.flight_reference' },
    // a letter escaped inside an identifier hides the word: what it reaches counts in full
    { value: 'c\\u006fnsole.info(1)', rule: 'node.process_reach' },
    { value: 'process.\\u006dainModule' },
    { value: 'pr\\u{6f}cess.env' },
    // prototype pollution in names, keys and query-string paths
    { value: '__proto__[isAdmin]', location: 'query_name', rule: 'node.prototype_pollution' },
    { value: '__proto__.test', location: 'query_name' },
    { value: 'a[constructor][prototype][onerror]', location: 'query_name' },
    { value: 'constructor.prototype.test', location: 'body_name' },
    { value: '__proto__', location: 'body_name' },
    { value: '__proto__.foo=bar', location: 'cookie' },
    { value: '{"title":{"__proto__":{"isAdmin":true}}}', location: 'raw_body' },
    // Perl interpolation
    { value: "@{[system 'whoami']}", rule: 'node.perl_interpolation' },
    { value: '@{   [   uc   "hello"   ]   }' },
    { value: '@@{[CORE::time()]}' },
    // endless loops
    { value: 'while(true);', rule: 'node.infinite_loop' },
    { value: 'while(!0);' },
    { value: 'while(!![]);' },
    { value: 'while(Infinity);' },
    { value: 'while(new Date);' },
    { value: 'while((true)))' },
    { value: 'for(;;){}' },
  ]);
  checkBenign(detectNodeInjection, [
    { value: 'process.env', below: 2 },
    { value: 'new Function() in JavaScript', below: 2 },
    { value: "require('fs') not working in the browser", below: 2 },
    { value: 'process.env in node' },
    // JSON escapes what is not ASCII, never a letter; escapes there are no evasion
    { value: '{"name":"Jos\\u00e9","note":"caf\\u00e9"}' },
    // an escaped letter inside a string the chain does not need: the chain reads the same as written
    { value: 'console.log("\\u0048ello")', below: 2 },
    { value: '{"city":"M\\u00fcnchen","text":"process.env explained"}', below: 2 },
    // a Flight-looking string that walks no prototype
    { value: '{"ref":"$7:Module:default"}' },
    { value: 'console.log(JSON.stringify(obj))', below: 2 },
    { value: 'const fs = require("fs")', below: 2 },
    { value: 'the constructor.prototype chain' },
    { value: 'Object.prototype.hasOwnProperty.call(obj, key)' },
    { value: 'x.__proto__ === Object.prototype', below: 2 },
    { value: 'Set NODE_ENV in process.env before you start the server', location: 'body' },
    { value: 'The process took a long time (about an hour)' },
    { value: 'require a signature from the manager' },
    { value: 'module 3: exports and imports' },
    { value: 'console.log is the debugger of the poor', location: 'body' },
    { value: 'the constructor of the class' },
    { value: 'prototype of the new phone' },
    { value: 'while (you wait) we prepare your order' },
    { value: 'while(!true);' },
    { value: 'while(!!"");' },
    { value: 'while(x < 10) x++' },
    { value: 'email me @{username}' },
    { value: '[link](https://example.com)' },
    { value: 'user[profile][name]', location: 'query_name' },
    { value: 'proto', location: 'query_name' },
    { value: 'my__proto__name', location: 'query_name' },
    { value: 'function of the heart' },
    { value: '{"price":"$1:00"}' },
    {
      value: 'Reading env vars:\n\n```js\nconst port = process.env.PORT;\nconst cp = require("child_process");\n```\n\nWorks on Node 20.',
      location: 'body',
      below: 2,
    },
  ]);
  it('lowers code quoted in a post below the loose threshold', () => {
    const post = 'I found this in a log:\n\n```\nprocess.mainModule.require("fs")\n```\n\nIs it an attack? We run Node 20 behind nginx.';
    expect(detectNodeInjection(post, 'body')?.severity).toBe(1);
    expect(detectNodeInjection('process.mainModule.require("fs")', 'body')?.severity).toBe(2);
  });
  checkRobust(detectNodeInjection);
});
