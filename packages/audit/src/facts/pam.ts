import type { RootFs } from '../root-fs.ts';

/** PAM stack lines of the files the password checks read, with `@include` followed. */
export interface PamLine {
  type: string;
  control: string;
  module: string;
  args: string[];
  file: string;
  line: number;
}

export function readPamStack(fs: RootFs, file: string, depth = 0): PamLine[] {
  const text = fs.read(file)?.text;
  if (text === undefined || depth > 8) return [];
  const stack: PamLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('@include')) {
      stack.push(...readPamStack(fs, `/etc/pam.d/${line.split(/\s+/)[1] ?? ''}`, depth + 1));
      return;
    }
    // The control field may be a bracketed list with spaces: [success=1 default=ignore].
    const match = /^(-?\S+)\s+(\[[^\]]*\]|\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!match) return;
    stack.push({ type: (match[1] as string).replace(/^-/, ''), control: match[2] as string, module: (match[3] as string).split('/').pop() as string, args: (match[4] ?? '').split(/\s+/).filter(Boolean), file, line: index + 1 });
  });
  return stack;
}

export interface PamFacts {
  password: PamLine[];
  auth: PamLine[];
}

export function collectPam(fs: RootFs): PamFacts {
  return { password: readPamStack(fs, '/etc/pam.d/common-password'), auth: readPamStack(fs, '/etc/pam.d/common-auth') };
}
