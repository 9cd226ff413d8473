import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadJob } from '@rampart/contracts';
import { cancelLogDownload, fetchLogArchive, followLogDownload, startLogDownload, type LogFilters } from '../../api/endpoints.ts';
import { saveBlob } from '../../utils/download.ts';

/** The server is asked how packing goes once a second. */
export const downloadPollMs = 1000;
/** Seconds between "ready" and the automatic download, so the user can still cancel. */
export const downloadCountdown = 3;

export type DownloadState =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'packing'; rows: number }
  | { phase: 'countdown'; rows: number; seconds: number }
  | { phase: 'fetching'; rows: number }
  | { phase: 'done'; rows: number; file: string }
  | { phase: 'failed'; reason: 'failed' | 'cancelled' | 'error' };

/**
 * Exporting the event log: start a job with the filters, follow it every second while it packs,
 * count down three seconds when it is ready, then fetch the archive with the token and save it.
 * Cancel stops it at any point and tells the server (which drops the job and its file).
 */
export function useLogDownload() {
  const [state, setState] = useState<DownloadState>({ phase: 'idle' });
  /** Bumped by cancel and unmount: a run whose number is stale stops at its next step. */
  const run = useRef(0);
  const job = useRef<string | undefined>(undefined);
  const file = useRef<string | undefined>(undefined);
  const wake = useRef<((go: boolean) => void) | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** Waits `ms`; false when the run was cancelled meanwhile. */
  const pause = (ms: number, id: number) =>
    new Promise<boolean>((resolve) => {
      wake.current = resolve;
      timer.current = setTimeout(() => resolve(run.current === id), ms);
    });

  const stop = useCallback((quiet: boolean) => {
    run.current += 1;
    clearTimeout(timer.current);
    wake.current?.(false);
    wake.current = undefined;
    const id = job.current;
    job.current = undefined;
    if (id) void cancelLogDownload(id, quiet).catch(() => undefined);
  }, []);

  // Leaving the page stops a download that is still under way.
  useEffect(() => () => stop(true), [stop]);

  const start = async (filters: LogFilters) => {
    const id = ++run.current;
    const live = () => run.current === id;
    file.current = undefined;
    setState({ phase: 'starting' });
    try {
      let current: DownloadJob = await startLogDownload(filters);
      if (!live()) {
        // Cancelled before the server even answered: drop the job it has just started.
        void cancelLogDownload(current.job, true).catch(() => undefined);
        return;
      }
      job.current = current.job;
      while (current.state === 'packing') {
        setState({ phase: 'packing', rows: current.rows });
        if (!(await pause(downloadPollMs, id))) return;
        current = await followLogDownload(current.job);
        if (!live()) return;
      }
      if (current.state !== 'ready' || !current.file) {
        job.current = undefined;
        setState({ phase: 'failed', reason: current.state === 'cancelled' ? 'cancelled' : 'failed' });
        return;
      }
      for (let seconds = downloadCountdown; seconds > 0; seconds--) {
        setState({ phase: 'countdown', rows: current.rows, seconds });
        if (!(await pause(1000, id))) return;
      }
      setState({ phase: 'fetching', rows: current.rows });
      const { blob, filename } = await fetchLogArchive(current.file);
      if (!live()) return;
      // Done: nothing left to cancel; the file stays on the server for 24 hours.
      job.current = undefined;
      file.current = current.file;
      saveBlob(blob, filename ?? current.file);
      setState({ phase: 'done', rows: current.rows, file: current.file });
    } catch {
      // The API client has told the user what went wrong.
      if (live()) {
        job.current = undefined;
        setState({ phase: 'failed', reason: 'error' });
      }
    }
  };

  /** Fetches the finished archive once more (it is kept 24 hours). */
  const again = async () => {
    if (!file.current) return;
    const name = file.current;
    const { blob, filename } = await fetchLogArchive(name);
    saveBlob(blob, filename ?? name);
  };

  const cancel = () => {
    stop(false);
    setState({ phase: 'idle' });
  };
  const close = () => setState({ phase: 'idle' });

  return { state, start: (f: LogFilters) => void start(f), cancel, close, again: () => void again().catch(() => undefined) };
}
