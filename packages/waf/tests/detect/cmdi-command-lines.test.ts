/**
 * Whole-value command lines without shell punctuation (tool verbs, interpreter + script, a tool
 * typed alone and submitted), a binary named inside its bin folder, and a bracket glob spelling a
 * system folder. Each shape is paired with the prose, search terms and file names it must not take.
 */
import { describe } from 'vitest';
import { detectCmdi } from '../../src/detect/cmdi/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

describe('cmdi: a tool and one of its verbs, an interpreter and its script', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    // typed into a search box: suspicious (strict mode)
    { value: 'pip install something', severity: 1, rule: 'cmdi.command_line' },
    { value: 'docker run alpine', severity: 1 },
    { value: 'systemctl stop firewalld', severity: 1 },
    { value: 'rc script.sh', severity: 1, rule: 'cmdi.command_line' },
    { value: 'bash install.sh', severity: 1 },
    { value: 'python3.11 exploit.py', severity: 1 },
    { value: 'perl p2.pl', severity: 1 },
    // with the line break that submits it: blocked
    { value: 'chef report nodes\n', location: 'body', rule: 'cmdi.command_line' },
    { value: 'pip3 install requests\n', location: 'body' },
    { value: 'sh run.sh\n', location: 'body' },
    // a clear reading of the same line still blocks (the verb reading is only a floor)
    { value: 'pip install -r /tmp/reqs.txt' },
  ]);
  checkBenign(detectCmdi, [
    // prose and titles: capitals, more words, a question mark
    { value: 'Pip install something' },
    { value: 'the chef reported three new nodes' },
    { value: 'Chef report nodes' },
    { value: 'docker run fails on mac' },
    { value: 'docker run fails?' },
    { value: 'git pull request template for teams', location: 'body' },
    // a verb the tool does not have, a script of another language, a lone word
    { value: 'chef knife sharpening' },
    { value: 'sh notes.txt' },
    { value: 'python snake.txt' },
    { value: 'rc' },
    { value: 'install.sh' },
    { value: 'python tutorial for beginners' },
    // JSON and lists that hold the words
    { value: '{"tool":"pip","verb":"install"}', location: 'body' },
    { value: 'pip, install, something' },
  ]);
});

describe('cmdi: a tool typed alone or chained, then submitted', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: 'visudo\n', location: 'body', rule: 'cmdi.command_line' },
    { value: 'ifconfig\n', location: 'body' },
    { value: 'time; cscli alerts list\n', location: 'body', rule: 'cmdi.chained_command' },
    { value: 'uname; whoami\n', location: 'body' },
  ]);
  checkBenign(detectCmdi, [
    // a lone word that is also a language or a product: "Python⏎" in a textarea
    { value: 'python\n', location: 'body' },
    { value: 'docker\n', location: 'body' },
    // no line break: a field value naming a report format (CRS must-pass `format=lastlog`)
    { value: 'lastlog' },
    { value: 'regedit ' },
    // prose before the separator: the line opens with words, not a command
    { value: 'I use python; python rocks\n', location: 'body' },
    { value: 'hello; git gud\n', location: 'body' },
    { value: 'time null space\n', location: 'body' },
    { value: 'var=hello; time he came', location: 'body' },
  ]);
});

describe('cmdi: binaries named in their folder, system folders spelled with globs', () => {
  checkAttacks(detectCmdi, 'cmdi', [
    { value: 'bin/chef', severity: 1, rule: 'cmdi.command_line' },
    { value: 'bin/cat', severity: 1 },
    { value: '/bin/cat', rule: 'cmdi.command_line' },
    { value: '/[e///]tc', rule: 'cmdi.glob_path' },
    { value: '/[e]tc/passwd', rule: 'cmdi.glob_path' },
  ]);
  checkBenign(detectCmdi, [
    { value: 'bin/console' },
    { value: 'recycle-bin/start' },
    { value: '/bin/more', location: 'path' },
    // dynamic routes, regexes, Accept lists, a lone wildcard path
    { value: '/users/[id]' },
    { value: '/[slug]/edit' },
    { value: '/[a-z]+/' },
    { value: 'text/*' },
    { value: '/???' },
    { value: '/e*' },
    { value: 'data[index]' },
    { value: 'page[1]' },
  ]);
});
