import { existsSync } from 'node:fs';
import { localDateTime, type AuditEvidence, type AuditReport, type AuditReportFinding, type AuditReportSection } from '@rampart/contracts';
import { reportLabels, type ReportLabels } from './labels.ts';

/*
 * The report as a PDF (pdfkit). Chinese needs a CJK font on the server: Debian's
 * fonts-wqy-microhei (scripts/setup.sh installs it), else one of the others below. pdfkit embeds
 * only the glyphs used, with a ToUnicode map, so the text stays searchable and copyable.
 */

export interface PdfFont {
  path: string;
  /** The face's PostScript name inside a collection (.ttc). */
  family: string;
}

export const cjkFonts: readonly PdfFont[] = [
  { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', family: 'WenQuanYiMicroHei' },
  { path: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', family: 'WenQuanYiZenHei' },
  { path: '/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf', family: 'AR-PL-SungtiL-GB' },
];

/** A Chinese PDF was asked for and the server has no font that can draw it (the console answers a refusal, not boxes). */
export class ReportFontMissingError extends Error {
  constructor() {
    super('no CJK font for the PDF report');
  }
}

export interface PdfOptions {
  /** Where to look for a CJK font, first found wins (tests pass a list that does not exist). */
  fonts?: readonly PdfFont[];
}

const colors = { danger: '#cf1322', warning: '#d46b08', hint: '#1677ff', muted: '#666666', text: '#222222', ok: '#389e0d' };

/** Without a CJK font the standard Helvetica draws only Latin-1: anything else becomes '?', never a box. */
const latin1 = (text: string) => text.replace(/[^\t\n\u0020-\u007e\u00a0-\u00ff]/g, '?');

export async function renderReportPdf(report: AuditReport, options: PdfOptions = {}): Promise<Buffer> {
  const font = (options.fonts ?? cjkFonts).find((f) => existsSync(f.path));
  if (!font && report.language === 'zh-CN') throw new ReportFontMissingError();
  // Loaded on first use: the agent imports this package too and never draws a PDF.
  const { default: PDFDocument } = await import('pdfkit');
  const l = reportLabels[report.language];
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${report.title} · ${report.host}`, Creator: 'Rampart' } });
  if (font) doc.registerFont('body', font.path, font.family);
  doc.font(font ? 'body' : 'Helvetica');
  const clean = font ? (text: string) => text : latin1;
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (value: string, size: number, color = colors.text, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.fontSize(size).fillColor(color).text(clean(value), options);

  const { run } = report;
  const counts = run.counts ?? { pass: 0, fail: 0, not_applicable: 0, error: 0 };
  const failed = run.failed_by_level ?? { hint: 0, warning: 0, danger: 0 };
  text(report.title, 20);
  text(`${l.host}: ${report.host}    ${l.run}: #${run.id}    ${l.generated}: ${localDateTime(report.generated_at)}`, 9, colors.muted);
  doc.moveDown();
  text(`${l.score}: ${run.score}`, 28);
  text(l.score_note, 8, colors.muted);
  doc.moveDown(0.5);
  const duration = run.duration_ms === null ? '' : l.seconds(Math.round(run.duration_ms / 100) / 10);
  for (const [label, value] of [
    [l.started, localDateTime(run.started_at)],
    [l.finished, localDateTime(run.finished_at)],
    [l.duration, duration],
    [l.by, run.account],
    [l.counts, `${l.outcome.pass} ${counts.pass} · ${l.outcome.fail} ${counts.fail} · ${l.outcome.not_applicable} ${counts.not_applicable} · ${l.outcome.error} ${counts.error}`],
    [l.failed_by_level, `${l.level.danger} ${failed.danger} · ${l.level.warning} ${failed.warning} · ${l.level.hint} ${failed.hint}`],
  ] as const) {
    text(`${label}: ${value}`, 10);
  }
  doc.moveDown();
  text(l.contents, 12);
  report.sections.forEach((s, i) => text(`${i + 1}. ${s.title} (${s.kind === 'findings' ? s.findings.length : s.rows.length})`, 10));

  for (const section of report.sections) {
    doc.addPage();
    text(section.title, 16);
    doc.moveDown(0.5);
    sectionPdf(section, l, text);
  }
  doc.end();
  return done;
}

type Write = (value: string, size: number, color?: string, options?: PDFKit.Mixins.TextOptions) => unknown;

function evidenceText(e: AuditEvidence, l: ReportLabels): string {
  const parts: string[] = [];
  if (e.file) parts.push(`${l.evidence_file}: ${e.file}${e.line ? ` ${l.evidence_line} ${e.line}` : ''}`);
  if (e.found !== undefined) parts.push(`${l.evidence_found}: ${e.found}`);
  if (e.expected !== undefined) parts.push(`${l.evidence_expected}: ${e.expected}`);
  if (e.note !== undefined) parts.push(`${l.evidence_note}: ${e.note}`);
  return parts.join('  ');
}

function findingPdf(f: AuditReportFinding, l: ReportLabels, text: Write) {
  const flag = f.fixed ? ` [${l.fixed}]` : f.fixable ? ` [${l.fixable}]` : '';
  text(`[${l.level[f.level]}] ${f.title}${flag}`, 11, colors[f.level]);
  text(`${l.category[f.category]}${f.cis_section ? ` · ${l.cis} ${f.cis_section}` : ''} · ${f.id} · ${l.outcome[f.outcome]}`, 8, colors.muted);
  text(`${l.advice}: ${f.advice}`, 9);
  for (const e of f.evidence) text(`• ${evidenceText(e, l)}`, 8, colors.muted, { indent: 10 });
  text(' ', 6);
}

function sectionPdf(section: AuditReportSection, l: ReportLabels, text: Write) {
  if (section.kind === 'findings') {
    if (!section.findings.length) text(section.empty, 10, colors.muted);
    for (const f of section.findings) findingPdf(f, l, text);
    return;
  }
  if (!section.rows.length) text(section.empty, 10, colors.muted);
  const [first, ...rest] = section.columns;
  for (const row of section.rows) {
    const tail = rest.map((c) => row[c.key]).filter(Boolean).join(' · ');
    text(`${first ? (row[first.key] ?? '') : ''}${tail ? `  —  ${tail}` : ''}`, 9);
  }
}
