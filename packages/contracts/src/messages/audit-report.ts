/** Server messages of the audit report export (`audit_report_`). */
const zh = {
  audit_report_run_invalid: '体检编号须为正整数',
  audit_report_format_invalid: '报告格式须为 html、pdf 或 json',
  audit_report_lang_invalid: '报告语言须为 zh 或 en',
  audit_report_no_run: '没有找到该次体检记录',
  audit_report_not_finished: '该次体检未完成，只能导出已完成的体检报告',
  audit_report_no_cjk_font: '服务器缺少中文字体（fonts-wqy-microhei），无法生成中文 PDF 报告；请安装该字体，或导出 HTML 报告后打印',
} as const;

const en: Record<keyof typeof zh, string> = {
  audit_report_run_invalid: 'The audit run id must be a positive integer',
  audit_report_format_invalid: 'The report format must be html, pdf or json',
  audit_report_lang_invalid: 'The report language must be zh or en',
  audit_report_no_run: 'No such audit run',
  audit_report_not_finished: 'This audit run has not finished; only a finished run can be exported',
  audit_report_no_cjk_font: 'The server has no Chinese font (fonts-wqy-microhei), so it cannot make a Chinese PDF report; install that font, or export the HTML report and print it',
};

export const auditReportMessages = { zh, en };
