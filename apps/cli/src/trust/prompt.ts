import { stdin, stderr } from 'node:process';

/*
 * Reading from the terminal: a password without echo (raw mode, so nothing of it reaches the screen
 * or the scroll-back), and a visible line for a verification code. Prompts go to stderr so stdout
 * carries only the terminal's own lines.
 */

/** A password typed in the terminal, not echoed; null when cancelled (Ctrl+C, Ctrl+D on an empty line). */
export function readHidden(prompt: string): Promise<string | null> {
  return new Promise((resolve) => {
    stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    let value = '';
    let escape = false;
    const finish = (result: string | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (escape) {
          // The rest of an escape sequence (arrow keys and the like): a letter or ~ ends it.
          if (/[A-Za-z~]/.test(ch)) escape = false;
          continue;
        }
        if (ch === '\r' || ch === '\n') return finish(value);
        if (ch === '\u0003') return finish(null);
        if (ch === '\u0004') return finish(value === '' ? null : value);
        if (ch === '\u001b') escape = true;
        else if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch === '\u0015') value = '';
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

let buffered = '';
let ended = false;

/** One line of standard input (a terminal, or a pipe in a script); null at its end. */
export function readLine(prompt: string): Promise<string | null> {
  stderr.write(prompt);
  return new Promise((resolve) => {
    const take = (): boolean => {
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        const line = buffered.slice(0, newline).replace(/\r$/, '');
        buffered = buffered.slice(newline + 1);
        done(line);
        return true;
      }
      if (ended) {
        const rest = buffered;
        buffered = '';
        done(rest === '' ? null : rest);
        return true;
      }
      return false;
    };
    const onData = (chunk: string) => {
      buffered += chunk;
      take();
    };
    const onEnd = () => {
      ended = true;
      take();
    };
    const done = (line: string | null) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      if (line === null && stdin.isTTY) stderr.write('\n');
      resolve(line);
    };
    if (take()) return;
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}
