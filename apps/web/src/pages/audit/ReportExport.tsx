import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auditReportFormats, type AuditReportFormat, type AuditRun } from '@rampart/contracts';
import { fetchBlob } from '../../api/http.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { saveBlob } from '../../utils/download.ts';

/** GET /audit/report: the run's report as a file, fetched with the token (a link cannot send it). */
export const fetchAuditReport = (runId: number, format: AuditReportFormat, lang: 'zh' | 'en') =>
  fetchBlob('/audit/report', { query: { run_id: runId, format, lang } });

/**
 * "Export report" beside the audit button: the shown run as HTML (printable), PDF or JSON, in the
 * reader's language. Only a finished run can be exported; the server refuses any other with a message.
 */
export function ReportExport({ run }: { run: AuditRun | null }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const canExport = useCan('audit', 'export');
  const download = useMutation({
    mutationFn: async ({ id, format }: { id: number; format: AuditReportFormat }) => {
      const { blob, filename } = await fetchAuditReport(id, format, language === 'zh-CN' ? 'zh' : 'en');
      saveBlob(blob, filename ?? `rampart-audit-${id}.${format}`);
    },
  });
  if (!canExport) return null;
  const finished = run?.status === 'finished' ? run : null;
  return (
    <Tooltip title={finished ? undefined : t('audit_report.hint')}>
      <Space size={8} data-testid="audit-report-export" data-run={finished?.id ?? ''}>
        <Typography.Text type={finished ? undefined : 'secondary'}>
          <DownloadOutlined /> {t('audit_report.export')}
        </Typography.Text>
        <Space.Compact>
          {auditReportFormats.map((format) => (
            <Button
              key={format}
              disabled={!finished}
              loading={download.isPending && download.variables?.format === format}
              onClick={() => finished && download.mutate({ id: finished.id, format })}
              data-testid={`audit-report-${format}`}
            >
              {t(`audit_report.${format}`)}
            </Button>
          ))}
        </Space.Compact>
      </Space>
    </Tooltip>
  );
}
