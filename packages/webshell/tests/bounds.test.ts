import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { webshellFileResultSchema, webshellScanProgressSchema, type WebshellFileResult, type WebshellScanProgress } from '@rampart/contracts';
import { classify, scanFile, scanTree } from '../src/index.ts';
import { tempDir, writeTree } from './support.ts';

describe('bounds', () => {
  it('reports a file over the size threshold as unscanned, and a missing one as unreadable', async () => {
    const dir = writeTree({ 'big.php': '<?php ' + 'x'.repeat(3000) });
    const big = await scanFile(join(dir, 'big.php'), { sizeLimitKb: 2, timeBudgetMs: 1000 });
    expect(big).toMatchObject({ status: 'unscanned', unscannedReason: 'unscanned_too_big', size: 3006 });
    const missing = await scanFile(join(dir, 'nope.php'), { sizeLimitKb: 2, timeBudgetMs: 1000 });
    expect(missing).toMatchObject({ status: 'unscanned', unscannedReason: 'unscanned_unreadable' });
    expect(webshellFileResultSchema.parse(missing)).toEqual(missing);
    const asDir = await scanFile(dir, { sizeLimitKb: 2, timeBudgetMs: 1000 });
    expect(asDir.unscannedReason).toBe('unscanned_not_regular');
  });

  it('classifies by content: PHP in .txt, ASP in .txt, images with code', () => {
    expect(classify('/x/readme.txt', Buffer.from('<?php echo 1;'))).toBe('php');
    expect(classify('/x/readme.txt', Buffer.from('<% Response.Write("a") %>'))).toBe('asp');
    expect(classify('/x/readme.txt', Buffer.from('hello <b>world</b>'))).toBe('other');
    expect(classify('/x/a.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<?php x();')]))).toBe('polyglot');
    expect(classify('/x/a.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x3c, 0x25, 0x00]))).toBe('other');
  });

  it('a pathological file comes back unscanned within the time budget and the tree scan goes on', async () => {
    // Both carry request input and a sink, so they are parsed (a file with nothing to follow is not).
    const nested = '<?php $a = $_GET[1] . ' + '('.repeat(400_000) + '1' + ')'.repeat(400_000) + '; eval($a);';
    const arrays = '<?php $a = $_GET[1] . ' + '['.repeat(200_000) + ']'.repeat(200_000) + '; eval($a);';
    const dir = writeTree({
      'a-nested.php': nested,
      'b-arrays.php': arrays,
      'c-shell.php': '<?php eval($_POST["x"]);',
    });
    const started = Date.now();
    const results: WebshellFileResult[] = [];
    const summary = await scanTree({ roots: [dir], sizeLimitKb: 4096, extensions: ['php'], timeBudgetMs: 1500, workers: 2, onResult: (r) => results.push(r) });
    const elapsed = Date.now() - started;
    expect(summary.state).toBe('complete');
    expect(results).toHaveLength(3);
    const byName = (name: string) => results.find((r) => r.path.endsWith(name));
    expect(byName('a-nested.php')?.status).toBe('unscanned');
    expect(byName('b-arrays.php')?.status).toBe('unscanned');
    expect(byName('c-shell.php')?.risk).toBe('high');
    // Two budgets (one per pathological file, on two workers) plus worker start-up, never a hang.
    expect(elapsed).toBeLessThan(8000);
  });
});

describe('tree scan', () => {
  it('walks without following symlinks, honours extensions and the whitelist, reports progress', async () => {
    const dir = writeTree({
      'site/index.php': '<?php echo "hi";',
      'site/up/x.php': '<?php system($_GET["c"]);',
      'site/cache/y.php': '<?php system($_GET["c"]);',
      'site/readme.md': '<?php system($_GET["c"]);',
      'site/lib/z.inc': '<?php assert($_POST["a"]);',
    });
    symlinkSync(join(dir, 'site'), join(dir, 'site/loop'));
    symlinkSync('/etc/passwd', join(dir, 'site/passwd.php'));
    const progress: WebshellScanProgress[] = [];
    const summary = await scanTree({
      roots: [join(dir, 'site')], sizeLimitKb: 64, extensions: ['php', 'inc'], whitelist: ['*/cache/*'], workers: 2,
      onProgress: (p) => progress.push(webshellScanProgressSchema.parse(p)),
    });
    expect(summary).toMatchObject({ state: 'complete', done: 3, total: 3 });
    expect(summary.reported.map((r) => r.path.slice(dir.length)).sort()).toEqual(['/site/lib/z.inc', '/site/up/x.php']);
    expect(progress[0]?.state).toBe('start');
    expect(progress.at(-1)).toMatchObject({ state: 'complete', done: 3, total: 3, flagged: 2, walkDone: true });
    expect(progress.some((p) => p.state === 'scanning' && p.currentPath.endsWith('.php'))).toBe(true);
  });

  it('stops when cancelled and says so (state end)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i += 1) files[`d${i % 10}/f${i}.php`] = `<?php echo ${i};`;
    const dir = writeTree(files);
    const controller = new AbortController();
    let seen = 0;
    const summary = await scanTree({
      roots: [dir], sizeLimitKb: 64, extensions: ['php'], workers: 2, signal: controller.signal,
      onResult: () => { seen += 1; if (seen === 5) controller.abort(); },
    });
    expect(summary.state).toBe('end');
    expect(summary.done).toBeLessThan(300);
  });

  it('passes over what it cannot or must not read (a FIFO, a root that is gone, a locked folder) and goes on', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'shell.php'), '<?php eval($_POST[1]);');
    // A FIFO named like a script: reading it would block the scan for ever. Root reads everything
    // else, so this is the case that holds for the agent.
    expect(spawnSync('mkfifo', [join(dir, 'pipe.php')]).status).toBe(0);
    if (process.getuid?.() !== 0) {
      mkdirSync(join(dir, 'locked'));
      writeFileSync(join(dir, 'locked/a.php'), '<?php eval($_POST[1]);');
      chmodSync(join(dir, 'locked'), 0o000);
    }
    const results: WebshellFileResult[] = [];
    const summary = await scanTree({ roots: [dir, join(dir, 'gone')], sizeLimitKb: 64, extensions: ['php'], onResult: (r) => results.push(r) });
    expect(summary.state).toBe('complete');
    expect(results.find((r) => r.path.endsWith('shell.php'))?.risk).toBe('high');
    expect(results.some((r) => r.path.endsWith('pipe.php') && r.status !== 'unscanned')).toBe(false);
  });
});
