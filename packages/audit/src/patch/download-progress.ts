import { parseGetLine, parseStatusLine } from './apt-parse.ts';

/*
 * Each package's own download progress from what apt prints while it fetches (issue 23).
 * apt 2.6's APT::Status-Fd line is `dlstatus:<i>:<percent>:Retrieving file <i> of <n>`: `i` is the
 * file being fetched and the percent is the whole download's, by bytes. The file's package is
 * named on stdout by `Get:<i> ... <pkg> <version> [<size>]`, and the whole download's size by
 * `Need to get <size>[/<total>] of archives.` So: files before `i` are finished; file `i` has
 * fetched (whole bytes done − the sizes of the files before it) of its own size. The two streams
 * are separate pipes and interleave in any order, so the state is rebuilt from both each time.
 */

export interface PackageDownload {
  name: string;
  state: 'downloading' | 'finished';
  /** 0–100 of this package's own bytes; null while its size is unknown. */
  percent: number | null;
}

const units: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/** apt's SizeToStr: `646 B`, `12.3 kB`, `2,757 kB` → bytes; null when not a size. */
export function parseAptSize(text: string): number | null {
  const m = /^([0-9][0-9,]*(?:\.[0-9]+)?)\s*(B|kB|MB|GB|TB)$/.exec(text.trim());
  return m ? Number(m[1]!.replace(/,/g, '')) * units[m[2]!]! : null;
}

export class DownloadTracker {
  readonly #files = new Map<number, { name: string; size: number | null }>();
  /** Bytes apt set out to fetch (the first figure of "Need to get"). */
  #total: number | null = null;
  /** The file apt reports fetching now (1-based) and the whole download's percent. */
  #current = 0;
  #percent = 0;
  #done = false;

  /** A line of apt's stdout; true when it changed the progress. */
  stdout(line: string): boolean {
    const text = line.trim();
    const get = /^Get:(\d+) .*\[([^\]]+)\]$/.exec(text);
    if (get) {
      const name = parseGetLine(text);
      if (!name) return false;
      this.#files.set(Number(get[1]), { name, size: parseAptSize(get[2]!) });
      return true;
    }
    const need = /^Need to get ([^/]+?)(?:\/.+)? of archives\.$/.exec(text);
    if (need) {
      this.#total = parseAptSize(need[1]!);
      return false;
    }
    if (/^Fetched /.test(text) || text === 'Download complete and in download only mode') {
      this.#done = true;
      return true;
    }
    return false;
  }

  /** A line of APT::Status-Fd; true when it changed the progress. */
  status(line: string): boolean {
    const status = parseStatusLine(line);
    const index = /^dlstatus:(\d+):/.exec(line.trim());
    if (status?.kind !== 'dlstatus' || !index) return false;
    this.#current = Math.max(this.#current, Number(index[1]));
    this.#percent = status.percent;
    if (status.percent >= 100) this.#done = true;
    return true;
  }

  /** Every package apt has named so far, in its fetch order. */
  packages(): PackageDownload[] {
    const indexes = [...this.#files.keys()].sort((a, b) => a - b);
    let before = 0;
    let sizesKnown = this.#total !== null;
    return indexes.map((index) => {
      const file = this.#files.get(index)!;
      const start = before;
      before += file.size ?? 0;
      if (file.size === null) sizesKnown = false;
      if (this.#done || index < this.#current) return { name: file.name, state: 'finished', percent: 100 };
      if (index > this.#current || this.#percent === 0) return { name: file.name, state: 'downloading', percent: 0 };
      if (!sizesKnown || !file.size) return { name: file.name, state: 'downloading', percent: null };
      const own = ((this.#percent / 100) * this.#total! - start) / file.size;
      return { name: file.name, state: 'downloading', percent: Math.round(Math.max(0, Math.min(1, own)) * 1000) / 10 };
    });
  }
}
