import type { Language } from './i18n.ts';
import { webshellReasons } from './webshell.ts';

/* Words of trojan protection's events (event-catalogue.ts formats `trojanrisk`, `trojanhandled`, `trojanhandling`, `trojanscan`, `trojanreason`). */

type Texts = Record<Language, string>;

export const trojanRiskNames: Record<string, Texts> = {
  high: { 'zh-CN': '高危', 'en-US': 'high risk' },
  medium: { 'zh-CN': '中危', 'en-US': 'medium risk' },
  low: { 'zh-CN': '低危', 'en-US': 'low risk' },
  none: { 'zh-CN': '无风险', 'en-US': 'no risk' },
};

/** What became of a found file (trojanHandledStates). */
export const trojanHandledNames: Record<string, Texts> = {
  pending: { 'zh-CN': '等待管理员处理', 'en-US': 'waiting for the administrator' },
  recorded: { 'zh-CN': '仅记录', 'en-US': 'recorded only' },
  trusted: { 'zh-CN': '已信任', 'en-US': 'trusted' },
  isolated: { 'zh-CN': '已隔离', 'en-US': 'isolated' },
  deleted: { 'zh-CN': '已删除', 'en-US': 'deleted' },
  failed: { 'zh-CN': '处理失败', 'en-US': 'handling failed' },
};

/** An administrator's action on a result (trojanResultActions). */
export const trojanHandlingNames: Record<string, Texts> = {
  trust: { 'zh-CN': '信任', 'en-US': 'trusted' },
  isolate: { 'zh-CN': '隔离', 'en-US': 'isolated' },
  delete: { 'zh-CN': '删除', 'en-US': 'deleted' },
  record: { 'zh-CN': '仅记录', 'en-US': 'recorded' },
};

export const trojanScanKindNames: Record<string, Texts> = {
  full: { 'zh-CN': '全盘扫描', 'en-US': 'full scan' },
  scheduled: { 'zh-CN': '定时扫描', 'en-US': 'scheduled scan' },
  audit: { 'zh-CN': '木马审计扫描', 'en-US': 'audit scan' },
};

/** A finding's reason in words, the rule name filled in. */
export function trojanReasonName(reason: string, rule: string, lang: Language): string {
  const texts = (webshellReasons as Record<string, Texts | undefined>)[reason];
  return texts ? texts[lang].replace('{rule}', rule) : reason;
}
