import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { WebshellFileResult } from '@rampart/contracts';
import { scanTree } from '../src/index.ts';
import { batchSize } from '../src/pool.ts';
import { hasPackedRun, isWorthParsing } from '../src/analyse/php/worth.ts';
import { writeTree } from './support.ts';

describe('worker pool: the per-file budget', () => {
  it('stops a worker stuck on one file: that file comes back as a timeout, the rest of its batch and the scan go on', async () => {
    // More files than one batch, the stuck one in the middle of the first: the files after it in its
    // batch must be requeued to the fresh worker, not lost with the stopped one.
    const files: Record<string, string> = {};
    for (let i = 0; i < batchSize + 8; i += 1) files[`f${String(i).padStart(3, '0')}.php`] = `<?php echo ${i};`;
    files['f010-stuck.php'] = '<?php echo "looks harmless";';
    files['f020-shell.php'] = '<?php eval($_POST["x"]);';
    const dir = writeTree(files);
    const results: WebshellFileResult[] = [];
    const started = Date.now();
    // The stall blocks the worker thread synchronously (Atomics.wait), as a runaway parse would:
    // nothing inside the worker can end it; only the pool's watchdog terminating the worker can.
    const summary = await scanTree({
      roots: [dir], sizeLimitKb: 64, extensions: ['php'], timeBudgetMs: 400, workers: 1,
      testStall: { pathIncludes: 'stuck', ms: 60_000 }, onResult: (r) => results.push(r),
    });
    const elapsed = Date.now() - started;
    expect(summary.state).toBe('complete');
    expect(results).toHaveLength(Object.keys(files).length);
    expect(new Set(results.map((r) => r.path)).size).toBe(results.length); // each file once
    const stuck = results.find((r) => r.path === join(dir, 'f010-stuck.php'));
    expect(stuck).toMatchObject({ status: 'unscanned', unscannedReason: 'unscanned_timeout' });
    expect(results.find((r) => r.path.endsWith('f020-shell.php'))?.risk).toBe('high');
    expect(results.filter((r) => r.status === 'unscanned')).toHaveLength(1);
    // One budget plus grace and a worker restart, far below the 60 s stall.
    expect(elapsed).toBeLessThan(10_000);
  });
});

describe('the parse pre-check', () => {
  it('parses files with a source and a sink, or a packed literal and a sink; skips the rest', () => {
    expect(isWorthParsing('<?php $c = $_GET["c"]; system($c);')).toBe(true);
    expect(isWorthParsing('<?php $f = "sys" . "tem"; $f("id");')).toBe(true);
    expect(isWorthParsing(`<?php $p = '${'QUJD'.repeat(200)}'; $f = $g($p);`)).toBe(true);
    expect(isWorthParsing('<?php $x = getenv("HTTP_X"); include $x;')).toBe(true);
    // Files over 4 KB: a source without a sink, a sink without a source
    const big = (code: string): string => `<?php /* ${'licence text '.repeat(400)} */ ${code}`;
    expect(isWorthParsing(big('echo htmlspecialchars($_GET["q"]);'))).toBe(false);
    expect(isWorthParsing(big('$rows = array_map("intval", $ids); include ABSPATH . "x.php";'))).toBe(false);
    // server-set keys and lowercase names are not request input
    expect(isWorthParsing(big('$s = $_SERVER["SCRIPT_NAME"]; $this->_get($s); call_user_func($cb);'))).toBe(false);
    // a small file with a sink is parsed whatever its sources
    expect(isWorthParsing('<?php $a = "as"; $c = $a . "sert"; $c($_SESSION["x"]);')).toBe(true);
    expect(isWorthParsing('<?php echo "hello";')).toBe(false);
  });

  it('finds a 600-character packed run wherever it sits, and nothing shorter', () => {
    for (const before of [0, 1, 299, 599, 600, 1234]) {
      for (const length of [599, 600, 601, 1500]) {
        expect(hasPackedRun(' '.repeat(before) + 'A'.repeat(length) + ' tail')).toBe(length >= 600);
      }
    }
    expect(hasPackedRun('A'.repeat(599) + ' ' + 'A'.repeat(599))).toBe(false);
  });
});
