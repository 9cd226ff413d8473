import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { findExecutable } from '../host/kernel-status.ts';

/*
 * The guard helper's build step, where one lies beside the binary (a source install:
 * apps/guard/Makefile with the binary at build/<name>). `make -q` says whether an input changed;
 * only then is it built, before the running helper is touched, so a failed build keeps the old one.
 */

export type GuardBuild = { outcome: 'rebuilt' | 'up_to_date' | 'no_build_step' } | { outcome: 'failed'; error: string };

function run(command: string, args: readonly string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    const keep = (chunk: Buffer) => {
      // The tail is what says why a build failed; keep it bounded.
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => resolve({ code: null, output: error.message }));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Rebuilds the helper when its build step exists and an input changed. */
export async function rebuildGuardIfChanged(binary: string, timeoutMs = 300_000): Promise<GuardBuild> {
  const buildDir = path.dirname(binary);
  if (path.basename(buildDir) !== 'build') return { outcome: 'no_build_step' };
  const projectDir = path.dirname(buildDir);
  const make = await findExecutable('make');
  try {
    await access(path.join(projectDir, 'Makefile'), constants.R_OK);
  } catch {
    return { outcome: 'no_build_step' };
  }
  if (!make) return { outcome: 'no_build_step' };
  const target = path.join('build', path.basename(binary));
  // -q: exit 0 when the target is current, 1 when it would be rebuilt.
  const question = await run(make, ['-q', '-C', projectDir, target], 30_000);
  if (question.code === 0) return { outcome: 'up_to_date' };
  const built = await run(make, ['-C', projectDir, target], timeoutMs);
  if (built.code === 0) return { outcome: 'rebuilt' };
  return { outcome: 'failed', error: built.output.trim().split('\n').slice(-5).join('\n').slice(-600) || `make exited with ${String(built.code)}` };
}
