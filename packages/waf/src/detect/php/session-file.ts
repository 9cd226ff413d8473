/**
 * An upload named like a PHP session file (`sess_<session id>`): written into the session
 * directory it becomes someone's session, or an object-injection payload PHP unserializes on the
 * next request (session poisoning). Session ids are 20 to 256 characters of [a-z0-9,-]; names that
 * merely contain "sess_" (my_sess_data.txt) or carry an extension pass.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

/** The headers upload handlers (and CRS) read a client-side file name from. */
const fileNameHeader = /^x[-_.]?file[-_.]?name$/i;

export function sessionFileUpload(value: string, location: InputLocation, name: string): DetectorHit | null {
  if (location !== 'file_name' && !(location === 'header' && fileNameHeader.test(name))) return null;
  const slash = Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\'));
  const base = value.slice(slash + 1).trim();
  if (base.length < 25 || base.length > 261 || base.slice(0, 5).toLowerCase() !== 'sess_') return null;
  if (!/^[A-Za-z0-9,-]+$/.test(base.slice(5))) return null;
  return { kind: 'cmdi', rule: 'php.session_file_upload', evidence: value.slice(0, 120), severity: 2 };
}
