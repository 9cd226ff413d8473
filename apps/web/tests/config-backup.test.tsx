import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfigBackupView } from '@rampart/contracts';
import { i18next } from '../src/i18n/index.ts';
import { file, ok, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

const at = new Date(2025, 4, 6, 3, 0, 0).getTime();
const manual: ConfigBackupView = { file: 'rampart-config-20250505-190000-abc123-manual.json', kind: 'manual', software_version: '0.1.0', format_version: 1, created_at: at, device: 'd', size: 2048 };
const auto: ConfigBackupView = { ...manual, file: 'rampart-config-20250505-180000-zzz999-auto.json', kind: 'auto', created_at: at - 3600_000, size: 4096 };
const restoredResult = { undo_file: 'rampart-config-20250506-000000-qqq111-auto.json', probation: null, secrets_dropped: 0 };

async function openConfig(handlers = {}, list: ConfigBackupView[] = [manual, auto]) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /system/config/backup': ok({ list }),
      'POST /system/config/backup': ok({ file: 'rampart-config-20250506-030000-new001-manual.json' }, 'Backup made'),
      'POST /system/config/backup/restore': ok(restoredResult, 'Configuration restored'),
      'POST /system/config/backup/delete': ok(null, 'Backup deleted'),
      'POST /system/config/import': ok(restoredResult, 'Configuration restored'),
      'POST /system/config/upload': ok({ file: 'x' }, 'Stored'),
      'POST /system/config/restore': ok(restoredResult, 'Configuration restored'),
      ...handlers,
    },
  });
  renderApp('/system/config');
  await screen.findByTestId('cfg-page');
  return api;
}

const chooseFile = async (text: string, name = 'rampart-config.json') => {
  const form = await screen.findByTestId('cfg-import-form');
  fireEvent.change(form.querySelector('input[type=file]')!, { target: { files: [new File([text], name, { type: 'application/json' })] } });
  expect(await screen.findByText(name)).toBeTruthy();
};

afterEach(async () => {
  localStorage.removeItem('rampart.lang');
  await act(() => i18next.changeLanguage('en-US'));
});

describe('configuration backup (system/config)', () => {
  it('lists the server backups with who made them, software version, time and size', async () => {
    await openConfig();
    const table = await screen.findByTestId('cfg-backups');
    await within(table).findByText(manual.file);
    const rows = [manual, auto].map((b) => table.querySelector(`tr[data-row-key="${b.file}"]`));
    for (const text of ['By hand', '0.1.0', '2025-05-06 03:00:00', '2.0 KB']) expect(rows[0]?.textContent).toContain(text);
    expect(rows[1]?.textContent).toContain('Before a restore');
  });

  it('makes a backup now and reads the list again', async () => {
    const api = await openConfig();
    await screen.findByText(manual.file);
    fireEvent.click(screen.getByTestId('cfg-backup-now'));
    await waitFor(() => expect(api.callsTo('POST /system/config/backup')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('GET /system/config/backup').length).toBeGreaterThan(1));
  });

  it('restores a server backup only after confirming that it replaces the current configuration', async () => {
    const api = await openConfig();
    fireEvent.click(await screen.findByTestId(`cfg-restore-${manual.file}`));
    expect(await screen.findByText(/replaces the current configuration/)).toBeTruthy();
    expect(api.callsTo('POST /system/config/backup/restore')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('cfg-restore-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/config/backup/restore')).toHaveLength(1));
    expect(api.callsTo('POST /system/config/backup/restore')[0]?.query.get('fid')).toBe(manual.file);
  });

  it('deletes a backup after confirming', async () => {
    const api = await openConfig();
    fireEvent.click(await screen.findByTestId(`cfg-delete-${auto.file}`));
    fireEvent.click(await screen.findByTestId('cfg-delete-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/config/backup/delete')).toHaveLength(1));
    expect(api.callsTo('POST /system/config/backup/delete')[0]?.query.get('file')).toBe(auto.file);
  });

  it('downloads the export and a server backup as files', async () => {
    const created = vi.fn(() => 'blob:config');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const api = await openConfig({
      'GET /system/config/export': file('{"format":"rampart-config"}', 'rampart-config-2025-05-06.json'),
      'GET /system/config/backup': (call: ApiCall) => (call.query.get('file') ? file('{}', manual.file) : ok({ list: [manual] })),
    });
    fireEvent.click(screen.getByTestId('cfg-export'));
    await waitFor(() => expect(api.callsTo('GET /system/config/export')).toHaveLength(1));
    fireEvent.click(await screen.findByTestId(`cfg-download-${manual.file}`));
    await waitFor(() => expect(api.callsTo('GET /system/config/backup').some((c) => c.query.get('file') === manual.file)).toBe(true));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(2));
  });

  it('imports a chosen file: confirmation first, then the file is posted as JSON', async () => {
    const api = await openConfig();
    fireEvent.click(screen.getByTestId('cfg-import'));
    await chooseFile('{"format":"rampart-config","content":{}}');
    fireEvent.click(screen.getByTestId('cfg-import-apply'));
    fireEvent.click(await screen.findByTestId('cfg-import-confirm'));
    await waitFor(() => expect(api.callsTo('POST /system/config/import')).toHaveLength(1));
    expect(api.callsTo('POST /system/config/import')[0]?.body).toEqual({ format: 'rampart-config', content: {} });
    await waitFor(() => expect(screen.queryByTestId('cfg-import-form')).toBeNull());
  });

  it('shows the refusal of a bad file in the dialog; a file that is not JSON is still sent for the server to judge', async () => {
    const api = await openConfig({
      // As the console answers a file that is not a configuration: 400, code 2, on the field `file`.
      'POST /system/config/import': { status: 400, body: { code: 2, msg: 'The file cannot be read: it is not a configuration file (not JSON). Nothing was changed', lang: 'en-US', data: { field: 'file' } } },
    });
    fireEvent.click(screen.getByTestId('cfg-import'));
    await chooseFile('garbage{');
    fireEvent.click(screen.getByTestId('cfg-import-apply'));
    fireEvent.click(await screen.findByTestId('cfg-import-confirm'));
    expect((await screen.findByTestId('cfg-import-error')).textContent).toContain('not a configuration file');
    expect(api.callsTo('POST /system/config/import')[0]?.body).toBe('garbage{');
  });

  it('keeps a file as a server backup without restoring it', async () => {
    const api = await openConfig();
    fireEvent.click(screen.getByTestId('cfg-import'));
    await chooseFile('{"format":"rampart-config"}');
    fireEvent.click(screen.getByTestId('cfg-import-keep'));
    await waitFor(() => expect(api.callsTo('POST /system/config/upload')).toHaveLength(1));
    expect(api.callsTo('POST /system/config/import')).toHaveLength(0);
  });

  it('asks for a file before importing', async () => {
    const api = await openConfig();
    fireEvent.click(screen.getByTestId('cfg-import'));
    await screen.findByTestId('cfg-import-form');
    fireEvent.click(screen.getByTestId('cfg-import-apply'));
    expect((await screen.findByTestId('cfg-import-error')).textContent).toBe('Choose a configuration file first');
    expect(api.callsTo('POST /system/config/import')).toHaveLength(0);
  });

  it('shows the firewall probation when the restored rules cut the administrator off', async () => {
    await openConfig({
      'POST /system/config/backup/restore': { body: { code: 1, msg: 'keep them', data: { ...restoredResult, probation: { token: 'tok', expires_at: Date.now() + 60_000, warnings: ['own_ip_blocked'] } } } },
    });
    fireEvent.click(await screen.findByTestId(`cfg-restore-${manual.file}`));
    fireEvent.click(await screen.findByTestId('cfg-restore-confirm'));
    expect(await screen.findByTestId('fw-probation')).toBeTruthy();
  });

  it('speaks Chinese', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    await openConfig();
    expect(screen.getByTestId('cfg-export').textContent).toContain('导出配置');
    expect(screen.getByTestId('cfg-backup-now').textContent).toContain('立即备份');
    expect(await screen.findByText('恢复前自动备份')).toBeTruthy();
  });
});
