import type { Texts } from '../types.ts';

/** Texts under `audit_report.` (the system audit's report export, English); the Chinese texts below hold the same keys. */
export const auditReportEn = {
  export: 'Export report',
  html: 'HTML (printable)',
  pdf: 'PDF',
  json: 'JSON',
  hint: 'Available once an audit has finished: the score, every finding with its advice and evidence, and what reinforcement fixed.',
};

export const auditReportZh: Texts<typeof auditReportEn> = {
  export: '导出报告',
  html: 'HTML（可打印）',
  pdf: 'PDF',
  json: 'JSON',
  hint: '体检完成后可导出：得分、每个问题的建议与依据，以及加固修复的项目。',
};
