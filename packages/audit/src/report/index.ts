/* The audit report (issue 23): a pure builder (agent answers → document) and its renderers. */
export { buildAuditReport, finishedRun, reportSections, systemSections, type FinishedRun, type ReportInput, type ReportSection } from './build-report.ts';
export { renderReportHtml } from './render-html.ts';
export { renderReportPdf, cjkFonts, ReportFontMissingError, type PdfFont, type PdfOptions } from './render-pdf.ts';
export { reportLabels, type ReportLabels } from './labels.ts';
export { reportFileName } from './file-name.ts';
