import { localDateTime, type AuditEvidence, type AuditReport, type AuditReportFinding, type AuditReportSection } from '@rampart/contracts';
import { html, Markup } from './html.ts';
import { reportLabels, type ReportLabels } from './labels.ts';

/*
 * The report as one self-contained HTML page: inline CSS, no script, no image, nothing fetched
 * (a Content-Security-Policy of `default-src 'none'` says so to the browser too, so even a value
 * that slipped past escaping could not run or call out). Printable: each section starts a page.
 */

/** This file's own constant, not data: the one piece that goes in unescaped. */
const style = `
:root{--danger:#cf1322;--warning:#d46b08;--hint:#1677ff;--ok:#389e0d;--muted:#666;--line:#ddd}
*{box-sizing:border-box}
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei","Microsoft YaHei",sans-serif;color:#222;margin:0 auto;max-width:960px;padding:24px;line-height:1.5}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;border-bottom:2px solid #222;padding-bottom:4px;margin-top:32px}h3{font-size:15px;margin:0}
.meta{color:var(--muted);margin:0 0 16px}.meta span{margin-right:16px}
.summary{display:flex;gap:24px;align-items:center;border:1px solid var(--line);border-radius:8px;padding:16px}
.score{font-size:48px;font-weight:700;line-height:1}.score small{display:block;font-size:13px;font-weight:400;color:var(--muted)}
.summary dl{display:grid;grid-template-columns:auto auto;gap:2px 12px;margin:0}.summary dt{color:var(--muted)}.summary dd{margin:0}
.note{color:var(--muted);font-size:12px}
nav ol{margin:8px 0;padding-left:20px}
.finding{border:1px solid var(--line);border-left:4px solid var(--hint);border-radius:4px;padding:10px 12px;margin:10px 0;break-inside:avoid}
.finding.danger{border-left-color:var(--danger)}.finding.warning{border-left-color:var(--warning)}
.badge{display:inline-block;font-size:12px;border-radius:3px;padding:0 6px;margin-right:6px;color:#fff;background:var(--hint)}
.badge.danger{background:var(--danger)}.badge.warning{background:var(--warning)}.badge.fixed{background:var(--ok)}.badge.plain{background:#888}
.finding p{margin:6px 0}.label{color:var(--muted)}
.evidence{margin:6px 0 0;padding-left:18px;font-size:13px}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;background:#f5f5f5;padding:0 3px;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}th{background:#fafafa}
.empty{color:var(--muted)}
@media print{body{max-width:none;padding:0}section{break-before:page}nav{break-after:avoid}a{color:inherit;text-decoration:none}@page{margin:16mm}}
`;

function evidenceLine(e: AuditEvidence, l: ReportLabels): Markup {
  const where = e.file ? html`<span class="label">${l.evidence_file}</span> <code>${e.file}</code>${e.line ? html` ${l.evidence_line} ${e.line}` : ''} ` : '';
  const found = e.found !== undefined ? html`<span class="label">${l.evidence_found}</span> <code>${e.found}</code> ` : '';
  const expected = e.expected !== undefined ? html`<span class="label">${l.evidence_expected}</span> <code>${e.expected}</code> ` : '';
  const note = e.note !== undefined ? html`<span class="label">${l.evidence_note}</span> <code>${e.note}</code>` : '';
  return html`<li>${where}${found}${expected}${note}</li>`;
}

function findingHtml(f: AuditReportFinding, l: ReportLabels): Markup {
  const flags = [
    html`<span class="badge ${f.level}">${l.level[f.level]}</span>`,
    f.fixed ? html`<span class="badge fixed">${l.fixed}</span>` : f.fixable ? html`<span class="badge plain">${l.fixable}</span>` : '',
  ];
  const cis = f.cis_section ? html` · ${l.cis} ${f.cis_section}` : '';
  return html`<article class="finding ${f.level}" id="check-${f.id}">
<h3>${flags}${f.title}</h3>
<p class="note">${l.category[f.category]}${cis} · <code>${f.id}</code> · ${l.outcome[f.outcome]}</p>
<p><span class="label">${l.advice}:</span> ${f.advice}</p>
${f.evidence.length ? html`<div class="label">${l.evidence}:</div><ul class="evidence">${f.evidence.map((e) => evidenceLine(e, l))}</ul>` : ''}
</article>`;
}

function sectionBody(section: AuditReportSection, l: ReportLabels): Markup {
  if (section.kind === 'findings') {
    return section.findings.length ? html`${section.findings.map((f) => findingHtml(f, l))}` : html`<p class="empty">${section.empty}</p>`;
  }
  if (!section.rows.length) return html`<p class="empty">${section.empty}</p>`;
  return html`<table><thead><tr>${section.columns.map((c) => html`<th>${c.label}</th>`)}</tr></thead>
<tbody>${section.rows.map((row) => html`<tr>${section.columns.map((c) => html`<td>${row[c.key] ?? ''}</td>`)}</tr>`)}</tbody></table>`;
}

const countOf = (section: AuditReportSection) => (section.kind === 'findings' ? section.findings.length : section.rows.length);

export function renderReportHtml(report: AuditReport): string {
  const l = reportLabels[report.language];
  const { run } = report;
  const counts = run.counts ?? { pass: 0, fail: 0, not_applicable: 0, error: 0 };
  const failed = run.failed_by_level ?? { hint: 0, warning: 0, danger: 0 };
  const duration = run.duration_ms === null ? '' : l.seconds(Math.round(run.duration_ms / 100) / 10);
  const page = html`<!doctype html>
<html lang="${report.language}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Rampart audit report v${report.version}">
<title>${report.title} · ${report.host} · ${localDateTime(run.finished_at)}</title>
<style>${new Markup(style)}</style>
</head>
<body>
<header>
<h1>${report.title}</h1>
<p class="meta"><span>${l.host}: ${report.host}</span><span>${l.run}: #${run.id}</span><span>${l.generated}: ${localDateTime(report.generated_at)}</span></p>
<div class="summary">
<div class="score" data-score="${run.score}">${run.score}<small>${l.score}</small></div>
<dl>
<dt>${l.started}</dt><dd>${localDateTime(run.started_at)}</dd>
<dt>${l.finished}</dt><dd>${localDateTime(run.finished_at)}</dd>
<dt>${l.duration}</dt><dd>${duration}</dd>
<dt>${l.by}</dt><dd>${run.account}</dd>
<dt>${l.counts}</dt><dd>${l.outcome.pass} ${counts.pass} · ${l.outcome.fail} ${counts.fail} · ${l.outcome.not_applicable} ${counts.not_applicable} · ${l.outcome.error} ${counts.error}</dd>
<dt>${l.failed_by_level}</dt><dd>${l.level.danger} ${failed.danger} · ${l.level.warning} ${failed.warning} · ${l.level.hint} ${failed.hint}</dd>
</dl>
</div>
<p class="note">${l.score_note}</p>
<nav><strong>${l.contents}</strong><ol>${report.sections.map((s) => html`<li><a href="#${s.id}">${s.title}</a> (${countOf(s)})</li>`)}</ol></nav>
</header>
${report.sections.map((s) => html`<section id="${s.id}"><h2>${s.title}</h2>${sectionBody(s, l)}</section>\n`)}
</body>
</html>
`;
  return page.text;
}
