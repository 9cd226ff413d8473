/** Finds a group's gid in /etc/group text (name:password:gid:members); undefined if absent. */
export function gidFromGroupFile(text: string, groupName: string): number | undefined {
  for (const line of text.split('\n')) {
    const [name, , gid] = line.split(':');
    if (name === groupName && gid !== undefined && /^\d+$/.test(gid)) return Number(gid);
  }
  return undefined;
}
