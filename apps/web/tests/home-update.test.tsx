import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReleaseView, VirlibUpdateResult } from '@rampart/contracts';
import { ok } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

/*
 * The dashboard's update buttons against a mocked console API (jsdom cannot run the console; the
 * calls themselves are apps/console/tests/home-update.test.ts's): what is posted and what is shown.
 */

async function openDashboard(handlers = {}) {
  const api = signedInAs('admin', { handlers });
  renderApp('/dashboard');
  await screen.findByTestId('dashboard');
  return api;
}

const releaseView = (download: Partial<ReleaseView['download']> = {}): ReleaseView => ({
  current: '0.1.0', url: 'http://127.0.0.1:6690/v1/releases/latest', url_configured: false, key_id: '0123456789abcdef',
  check: { state: 'available', checked_at: 1, reason: '', detail: '', latest: { product: 'rampart', version: '0.2.0', date: '2026-12-01T00:00:00Z', notes: { 'zh-CN': '修复', 'en-US': 'Fixes' }, file: 'rampart-0.2.0.tar.gz', size: 2048, sha256: 'a'.repeat(64) } },
  download: { state: 'idle', version: '', bytes: 0, total: 0, staged_path: '', reason: '', detail: '', ...download },
  can_install: false,
});

describe('dashboard update buttons', () => {
  it('the abnormal kernel status offers the driver update, after a confirmation', async () => {
    const api = await openDashboard({ 'POST /home/update_kernel': ok({ refused: null, build: 'up_to_date', build_error: '', helper: 'restarted', generation: 3, status: { status: 'normal', os: 'Debian', kernel: '6.1', causes: [] } }, 'Driver update done: kernel status is normal') });
    fireEvent.click(screen.getByTestId('kernel-update'));
    fireEvent.click(await screen.findByTestId('kernel-update-confirm'));
    await waitFor(() => expect(api.callsTo('POST /home/update_kernel')).toHaveLength(1));
    expect(await screen.findByText('Driver update done: kernel status is normal')).toBeTruthy();
  });

  it('the cloud library update shows each part: updated, failed with its reason, recompiled', async () => {
    const result: VirlibUpdateResult = {
      refused: null, virlib_version: '2026.1 · Lab feed v2',
      components: [
        { kind: 'feed', name: 'Lab feed', state: 'updated', old_version: '1', new_version: '2', reason: '', detail: '' },
        { kind: 'feed', name: 'Other feed', state: 'failed', old_version: '3', new_version: '3', reason: 'cloud_fetch_failed', detail: 'HTTP 500' },
        { kind: 'webshell_rules', name: '', state: 'unchanged', old_version: '2026.1', new_version: '2026.1', reason: '', detail: '' },
        { kind: 'custom_library', name: '', state: 'unchanged', old_version: '', new_version: '', reason: '', detail: '2/5' },
      ],
    };
    const api = await openDashboard({ 'POST /home/update_virlib': ok(result) });
    fireEvent.click(screen.getByTestId('virlib-update'));
    await waitFor(() => expect(api.callsTo('POST /home/update_virlib')).toHaveLength(1));
    const parts = await screen.findAllByTestId('virlib-part-feed');
    expect(parts[0]!.textContent).toContain('updated 1 → 2');
    expect(parts[1]!.textContent).toContain('failed:');
    expect(parts[1]!.textContent).toContain('HTTP 500');
    expect(screen.getByTestId('virlib-part-custom_library').textContent).toContain('2 rules, 5 hashes');
  });

  it('a release is checked, downloaded with progress polled, and said to be staged (not installed)', async () => {
    let polls = 0;
    const api = await openDashboard({
      'GET /home/update': () => {
        polls += 1;
        if (polls === 1) return ok(releaseView());
        if (polls === 2) return ok(releaseView({ state: 'downloading', version: '0.2.0', bytes: 1024, total: 2048 }));
        return ok(releaseView({ state: 'staged', version: '0.2.0', bytes: 2048, total: 2048, staged_path: '/var/lib/rampart/agent/releases/0.2.0' }));
      },
      'POST /home/update': ok(releaseView({ state: 'downloading', version: '0.2.0', bytes: 0, total: 2048 }), 'Downloading version 0.2.0'),
    });
    fireEvent.click(screen.getByTestId('release-open'));
    expect((await screen.findByTestId('release-check-state')).textContent).toContain('Version 0.2.0');
    expect(screen.getByTestId('release-notes').textContent).toBe('Fixes');
    fireEvent.click(screen.getByTestId('release-download'));
    await waitFor(() => expect(api.callsTo('POST /home/update').map((call) => call.body)).toEqual([{ action: 'download' }]));
    const staged = await screen.findByTestId('release-staged', {}, { timeout: 4000 });
    expect(staged.textContent).toContain('staged at /var/lib/rampart/agent/releases/0.2.0');
    expect(staged.textContent).toContain('Automatic install is not in this build');
  });
});
