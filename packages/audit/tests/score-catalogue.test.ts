import { afterAll, describe, expect, it } from 'vitest';
import { auditCheckInfoSchema, auditSummarySchema, type AuditCheckResult } from '@rampart/contracts';
import { allChecks, describeChecks, recordedExecutor, runAudit, score } from '../src/index.ts';
import { baseAccounts, makeRoot, removeRoots } from './fixture-root.ts';

afterAll(removeRoots);

const result = (level: AuditCheckResult['level'], outcome: AuditCheckResult['outcome']): AuditCheckResult => ({ id: `${level}-${outcome}`, category: 'ssh', level, outcome, evidence: [], fixable: false });

describe('the score', () => {
  it('weighs failures by level and leaves n/a and errors out', () => {
    expect(score([])).toBe(100);
    expect(score([result('danger', 'pass'), result('hint', 'fail')])).toBe(90);
    expect(score([result('danger', 'fail'), result('hint', 'pass')])).toBe(10);
    expect(score([result('warning', 'pass'), result('warning', 'fail'), result('danger', 'error'), result('hint', 'not_applicable')])).toBe(50);
    expect(score([result('danger', 'fail')])).toBe(0);
  });
});

describe('the catalogue', () => {
  it('has unique ids, both languages for every text, and valid CIS-style sections', () => {
    const infos = describeChecks();
    expect(new Set(infos.map((i) => i.id)).size).toBe(infos.length);
    for (const info of infos) {
      auditCheckInfoSchema.parse(info);
      expect(info.cisSection, info.id).toMatch(/^(\d+(\.\d+)*)?$/);
      expect(info.title['zh-CN'], info.id).toMatch(/[\u4e00-\u9fff]/);
      expect(info.advice['zh-CN'], info.id).toMatch(/[\u4e00-\u9fff]/);
      expect(info.title['en-US'], info.id).not.toMatch(/[\u4e00-\u9fff]/);
    }
    expect(allChecks.length).toBeGreaterThan(90);
  });
});

describe('a whole run', () => {
  it('judges every check once, reports progress and a summary the contract accepts', async () => {
    const root = makeRoot({ ...baseAccounts, '/etc/ssh/sshd_config': 'PermitRootLogin yes\n' });
    const progress: string[] = [];
    const { summary } = await runAudit({ root, exec: recordedExecutor({}), onProgress: (p) => progress.push(p.checkId), now: () => 1_700_000_000_000 });
    auditSummarySchema.parse(summary);
    expect(progress).toEqual(allChecks.map((c) => c.id));
    expect(summary.results.find((r) => r.id === 'ssh.permit_root_login_password')?.outcome).toBe('fail');
    expect(summary.counts.error).toBeGreaterThan(0); // no ss, find, dpkg or apt-get in a fixture root
    expect(summary.counts.pass + summary.counts.fail + summary.counts.error + summary.counts.not_applicable).toBe(allChecks.length);
    expect(summary.startedAt).toBe(1_700_000_000_000);
  });
});
