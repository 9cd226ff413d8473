/**
 * Web-shell uploads. File names are judged where they arrive (location 'file_name'); content where
 * it is an upload ('file_content', a PUT 'raw_body'). In ordinary form fields ('body') a shell is
 * only suspicious: forum posts about PHP security quote exactly these lines.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { judgeContent } from './content.ts';
import { judgeFileName } from './file-name.ts';

/** Upload APIs (and the PUT-style uploaders) name the file in a header. */
const fileNameHeaders = /^x[-_.]?(?:file[-_.]?name|filename)$/i;

export function detectWebshell(value: string, location: InputLocation, name?: string): DetectorHit | null {
  try {
    if (location === 'file_name') return judgeFileName(value);
    if (location === 'header') return name !== undefined && fileNameHeaders.test(name) ? judgeFileName(value) : null;
    if (location !== 'file_content' && location !== 'raw_body' && location !== 'body') return null;
    if (!value.includes('<')) return null;
    const found = judgeContent(value);
    if (found && location === 'body') return { ...found, severity: 1 };
    return found;
  } catch {
    return null;
  }
}
