import { describe } from 'vitest';
import { detectSsti } from '../../src/detect/ssti/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('template injection detector', () => {
  checkAttacks(detectSsti, 'ssti', [
    { value: '{{7*7}}', rule: 'ssti.expression' },
    { value: '{{1337*1338}}' },
    { value: "{{7*'7'}}" },
    { value: '${7*7}' },
    { value: '#{7*7}' },
    { value: '*{7*7}' },
    { value: '<%= 7*7 %>' },
    { value: "aaaa'+#{16*8787}+'bbb" },
    { value: '{{config}}' },
    { value: '{{config.items()}}' },
    { value: "{{''.__class__.__mro__[1].__subclasses__()}}" },
    { value: '{{self._TemplateReference__context.cycler.__init__.__globals__.os.popen("id").read()}}' },
    { value: "{{request|attr('application')|attr('\\x5f\\x5fglobals\\x5f\\x5f')}}" },
    { value: '{{lipsum.__globals__["os"].popen("id").read()}}' },
    { value: '${T(java.lang.Runtime).getRuntime().exec("id")}' },
    { value: '*{T(org.apache.commons.io.IOUtils).toString(T(java.lang.Runtime).getRuntime().exec("id").getInputStream())}' },
    { value: '<#assign ex = "freemarker.template.utility.Execute"?new()>${ ex("id")}', rule: 'ssti.freemarker_new' },
    { value: '#set($x="")#set($rt=$x.class.forName("java.lang.Runtime"))', rule: 'ssti.velocity_set' },
    { value: '{php}echo `id`;{/php}', rule: 'ssti.smarty_code' },
    { value: '{{_self.env.registerUndefinedFilterCallback("exec")}}' },
    { value: "{{['id']|filter('system')}}" },
    { value: '<%= `id` %>' },
    { value: '{{ settings.SECRET_KEY }}', severity: 1 },
    // blind probes: a block whose condition is a literal
    { value: '{% if True %}49{% endif %}', rule: 'ssti.expression' },
    { value: '<% if True %>49<% endif %>' },
    { value: '<%= if 1==1 %>x<% end %>' },
    { value: "{% if 'a' == 'a' %}ok{% endif %}" },
  ]);
  checkBenign(detectSsti, [
    { value: '{{ user.name }}' },
    { value: 'Hello {{name}}, your order {{ order.id }} shipped' },
    { value: '${price}' },
    { value: 'const s = `${a + b}`;', location: 'body' },
    { value: 'The standard for the <$ tag is to enclose text' },
    { value: '{% if user %}Hi{% endif %}' },
    { value: '{% if user.is_authenticated %}Hi{% endif %}' },
    { value: '{% if count == 1 %}one{% endif %}' },
    { value: '<% if @user.admin? %>Admin<% end %>' },
    { value: '#{user.id}' },
    { value: 'use {{ 5 }} items' },
    { value: 'Total: $5 * 3 = $15' },
    { value: '${jndi:ldap://x/a}' },
    { value: 'echo ${IFS}' },
    { value: '[Host: type: {[' },
  ]);
  checkRobust(detectSsti);
});
