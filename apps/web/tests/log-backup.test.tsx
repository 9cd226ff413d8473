import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BackupRuleInput, BackupRuleView } from '@rampart/contracts';
import { type } from './helpers/antd.ts';
import { backupRuleView } from './helpers/fixtures.ts';
import { ok, refused, type ApiCall } from './helpers/mockApi.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';
import { i18next } from '../src/i18n/index.ts';

const at = new Date(2025, 4, 6, 3, 0, 0).getTime();
const ftp = backupRuleView(1, { last: { at, ok: true, file: 'rampart-2025-05-05.tar.gz', error: '' } });
const s3 = backupRuleView(2, {
  type: 's3', bucket: 'logs-bucket', domain: 's3.example.com', port: 443, username: '', has_password: false,
  access_id: 'AKIA123', has_access_secret: true, save_path: 'archive', remark: '',
  last: { at, ok: false, file: '', error: 'connection refused' },
});

/** Echoes a saved list back as views (secrets become "has_…" flags). */
function asViews(rules: BackupRuleInput[]): BackupRuleView[] {
  return rules.map((r, i) => ({
    id: r.id ?? 100 + i, enabled: r.enabled, type: r.type, bucket: r.bucket, domain: r.domain, ip: r.ip, port: r.port, username: r.username,
    has_password: r.password !== '' || r.id !== undefined, access_id: r.access_id, has_access_secret: r.access_secret !== '' || r.id !== undefined,
    save_path: r.save_path, remark: r.remark, last: null,
  }));
}

async function openBackup(handlers = {}, rules: BackupRuleView[] = [ftp, s3]) {
  const api = signedInAs('admin', {
    handlers: {
      'GET /system/log_backup': ok({ rules }),
      'POST /system/log_backup': (call: ApiCall) => ok({ rules: asViews((call.body as { rules: BackupRuleInput[] }).rules) }, 'Saved'),
      ...handlers,
    },
  });
  renderApp('/system/log');
  await screen.findByTestId('system-log-page');
  return api;
}

const posted = (api: { callsTo(k: string): ApiCall[] }) => api.callsTo('POST /system/log_backup').map((c) => (c.body as { rules: BackupRuleInput[] }).rules);
const saveModal = () => fireEvent.click(screen.getByTestId('backup-save'));
const ftpInput = (extra: Partial<BackupRuleInput> = {}): BackupRuleInput => ({
  id: 1, enabled: true, type: 'ftp', bucket: '', domain: 'ftp.example.com', ip: '', port: 21, username: 'backup', password: '',
  access_id: '', access_secret: '', save_path: '/logs', remark: 'office NAS', ...extra,
});
const s3Input = (extra: Partial<BackupRuleInput> = {}): BackupRuleInput => ({
  id: 2, enabled: true, type: 's3', bucket: 'logs-bucket', domain: 's3.example.com', ip: '', port: 443, username: '', password: '',
  access_id: 'AKIA123', access_secret: '', save_path: 'archive', remark: '', ...extra,
});

describe('log backup rules (system/log)', () => {
  it('the tab is named for what it holds: log backup, in both languages', async () => {
    await openBackup();
    expect(screen.getByTestId('tab-log').textContent).toBe('Log backup');
    await act(() => i18next.changeLanguage('zh-CN'));
    expect(screen.getByTestId('tab-log').textContent).toBe('日志备份');
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('lists each rule with host, port, user, where archives go, switch and the last backup', async () => {
    await openBackup();
    const row1 = await screen.findByTestId('backup-row-1');
    for (const text of ['FTP', 'ftp.example.com', '21', 'backup', '/logs/rampart-logs/', 'office NAS']) expect(row1.textContent).toContain(text);
    expect(screen.getByTestId('backup-last-1').textContent).toContain('2025-05-06 03:00:00');
    expect(screen.getByTestId('backup-last-1').textContent).toContain('Succeeded');
    const row2 = screen.getByTestId('backup-row-2');
    for (const text of ['S3', 'logs-bucket', 's3.example.com', 'AKIA123', 'archive/rampart-logs/']) expect(row2.textContent).toContain(text);
    expect(screen.getByTestId('backup-last-2').textContent).toContain('Failed');
    expect(screen.getByTestId('backup-last-2').textContent).toContain('connection refused');
    expect(screen.getByTestId('backup-enabled-1').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('backup-hint').textContent).toContain('<save path>/rampart-logs/');
  });

  it('adds an S3 rule: bucket and access keys for S3, the whole list is saved with ids and blank secrets', async () => {
    const api = await openBackup();
    await screen.findByTestId('backup-row-1');
    fireEvent.click(screen.getByTestId('backup-add'));
    await screen.findByTestId('backup-form');
    expect(screen.queryByTestId('backup-username')).toBeNull();
    expect((screen.getByTestId('backup-access-secret') as HTMLInputElement).placeholder).toBe('');
    type('backup-bucket', 'new-bucket');
    type('backup-domain', 'minio.example.com');
    type('backup-access-id', 'KEY');
    type('backup-access-secret', 'SECRET');
    type('backup-save-path', '/backup/');
    expect(screen.getByTestId('backup-archive-path').textContent).toBe('Archives go to /backup/rampart-logs/');
    saveModal();
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0]).toEqual([
      ftpInput(),
      s3Input(),
      {
        enabled: true, type: 's3', bucket: 'new-bucket', domain: 'minio.example.com', ip: '', port: 443, username: '', password: '',
        access_id: 'KEY', access_secret: 'SECRET', save_path: '/backup/', remark: '',
      },
    ]);
    await screen.findByTestId('backup-row-102');
  });

  it('switching to FTP/SFTP shows username and password and moves the default port', async () => {
    await openBackup();
    fireEvent.click(await screen.findByTestId('backup-add'));
    fireEvent.click(await screen.findByTestId('backup-type-sftp'));
    expect((screen.getByTestId('backup-port') as HTMLInputElement).value).toBe('22');
    expect(screen.getByTestId('backup-username')).toBeTruthy();
    expect(screen.getByTestId('backup-password')).toBeTruthy();
    expect(screen.queryByTestId('backup-bucket')).toBeNull();
    expect(screen.queryByTestId('backup-access-id')).toBeNull();
  });

  it('editing keeps the stored secret: "leave blank to keep", blank sent with the id', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-edit-1'));
    await screen.findByTestId('backup-form');
    expect((screen.getByTestId('backup-password') as HTMLInputElement).placeholder).toBe('Leave blank to keep the stored one');
    expect((screen.getByTestId('backup-domain') as HTMLInputElement).value).toBe('ftp.example.com');
    type('backup-remark', 'moved rack');
    saveModal();
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0]).toEqual([ftpInput({ remark: 'moved rack' }), s3Input()]);
  });

  it('editing the S3 rule shows "leave blank to keep" on the access secret; a new one is sent when typed', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-edit-2'));
    await screen.findByTestId('backup-form');
    expect((screen.getByTestId('backup-access-secret') as HTMLInputElement).placeholder).toBe('Leave blank to keep the stored one');
    type('backup-access-secret', 'rotated');
    saveModal();
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0]?.[1]).toEqual(s3Input({ access_secret: 'rotated' }));
  });

  it('the schema refuses a bad bucket and a missing host on their fields; nothing is sent', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-add'));
    await screen.findByTestId('backup-form');
    type('backup-bucket', 'Bad_Bucket');
    type('backup-access-id', 'KEY');
    saveModal();
    await waitFor(() => expect(screen.getByTestId('backup-error-bucket').textContent).toBe('Bucket names are 3-63 lowercase letters, digits, dots or hyphens'));
    expect(screen.getByTestId('backup-error-domain').textContent).toBe('Enter a domain name or an IP');
    expect(posted(api)).toHaveLength(0);
  });

  it('a rule that writes where another does is refused as "Has duplicates"', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-add'));
    fireEvent.click(await screen.findByTestId('backup-type-ftp'));
    type('backup-domain', 'FTP.example.com');
    type('backup-username', 'other');
    type('backup-save-path', '/logs/');
    saveModal();
    expect((await screen.findByTestId('backup-error')).textContent).toBe('Has duplicates');
    expect(posted(api)).toHaveLength(0);
  });

  it('HTTP 400 naming rules.N.field shows the message on that field of the open rule', async () => {
    const api = await openBackup({ 'POST /system/log_backup': refused('Enter a valid domain name', 'rules.0.domain') });
    fireEvent.click(await screen.findByTestId('backup-edit-1'));
    await screen.findByTestId('backup-form');
    type('backup-domain', 'ftp2.example.com');
    saveModal();
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('backup-error-domain').textContent).toBe('Enter a valid domain name'));
  });

  it('the enabled switch saves the whole list with that rule turned off', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-enabled-2'));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0]).toEqual([ftpInput(), s3Input({ enabled: false })]);
  });

  it('delete asks first, then saves the list without the rule', async () => {
    const api = await openBackup();
    fireEvent.click(await screen.findByTestId('backup-delete-1'));
    expect((await screen.findAllByText(/Delete this backup rule\?/)).length).toBeGreaterThan(0);
    expect(posted(api)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('backup-delete-confirm'));
    await waitFor(() => expect(posted(api)).toEqual([[s3Input()]]));
    await waitFor(() => expect(screen.queryByTestId('backup-row-1')).toBeNull());
  });

  it('"back up now" runs every rule and shows the result of each', async () => {
    const api = await openBackup({
      'POST /system/log_backup/run': ok(
        { results: [{ id: 1, ok: true, file: 'rampart-2025-05-06.tar.gz', error: '' }, { id: 2, ok: false, file: '', error: 'access denied' }] },
        'Backup finished: 1 succeeded, 1 failed',
      ),
    });
    fireEvent.click(await screen.findByTestId('backup-run'));
    const results = await screen.findByTestId('backup-run-results');
    expect(api.callsTo('POST /system/log_backup/run')).toHaveLength(1);
    const one = within(results).getByTestId('backup-run-result-1');
    expect(one.textContent).toContain('Succeeded');
    expect(one.textContent).toContain('ftp.example.com');
    expect(one.textContent).toContain('rampart-2025-05-06.tar.gz');
    const two = within(results).getByTestId('backup-run-result-2');
    expect(two.textContent).toContain('Failed');
    expect(two.textContent).toContain('access denied');
    await waitFor(() => expect(api.callsTo('GET /system/log_backup').length).toBeGreaterThan(1));
  });
});
