import { z } from 'zod';
import type { Language } from './i18n.ts';
import { isProtectedPath, tamperRuleInputSchema, type TamperRuleInput } from './tamper.ts';
import { stampParam } from './query-params.ts';

/*
 * CMS templates: ready rule sets for common PHP sites. A user picks the site's root; the template
 * protects the code against every change by every process, lets the directories the CMS writes
 * stay writable, and keeps executables and scripts out of its upload folders. Data, not code: a new
 * CMS is one more entry below.
 */

export const cmsTemplateIds = ['wordpress', 'drupal', 'joomla', 'discuz', 'dedecms', 'phpmyadmin'] as const;
export const cmsTemplateIdSchema = z.enum(cmsTemplateIds, { message: 'tamper_template_invalid' });
export type CmsTemplateId = z.infer<typeof cmsTemplateIdSchema>;

type Text = Record<Language, string>;

/** A directory the CMS writes, relative to the site root, and what it holds (for the rule's remark). */
interface WritableDir {
  dir: string;
  holds: Text;
  /** Uploads-like: nothing in it may be executed. */
  noExec?: boolean;
  /** Users upload into it and the CMS never writes PHP there: creating or changing `*.php` is denied. */
  noScripts?: boolean;
}

export interface CmsTemplate {
  id: CmsTemplateId;
  name: Text;
  writable: readonly WritableDir[];
}

const t = (zh: string, en: string): Text => ({ 'zh-CN': zh, 'en-US': en });

/**
 * The directories each CMS writes at run time. Where a CMS compiles PHP into a writable directory
 * (Drupal's files/php, Discuz!'s data/template, phpMyAdmin's tmp), scripts stay allowed there.
 */
export const cmsTemplates: readonly CmsTemplate[] = [
  {
    id: 'wordpress',
    name: t('WordPress', 'WordPress'),
    writable: [
      { dir: 'wp-content/uploads', holds: t('媒体上传', 'media uploads'), noExec: true, noScripts: true },
      { dir: 'wp-content/cache', holds: t('页面缓存', 'page cache') },
      { dir: 'wp-content/upgrade', holds: t('升级临时文件', 'upgrade staging') },
    ],
  },
  {
    id: 'drupal',
    name: t('Drupal', 'Drupal'),
    writable: [{ dir: 'sites/default/files', holds: t('上传文件与编译模板', 'uploads and compiled templates'), noExec: true }],
  },
  {
    id: 'joomla',
    name: t('Joomla', 'Joomla'),
    writable: [
      { dir: 'images', holds: t('媒体上传', 'media uploads'), noExec: true, noScripts: true },
      { dir: 'cache', holds: t('站点缓存', 'site cache') },
      { dir: 'tmp', holds: t('安装临时文件', 'installer staging'), noExec: true },
      { dir: 'administrator/cache', holds: t('后台缓存', 'administrator cache') },
      { dir: 'logs', holds: t('日志', 'logs'), noExec: true },
    ],
  },
  {
    id: 'discuz',
    name: t('Discuz!', 'Discuz!'),
    writable: [
      { dir: 'data', holds: t('缓存、模板与附件', 'cache, templates and attachments') },
      { dir: 'data/attachment', holds: t('论坛附件', 'forum attachments'), noExec: true, noScripts: true },
      { dir: 'uc_server/data', holds: t('UCenter 数据', 'UCenter data') },
      { dir: 'uc_client/data', holds: t('UCenter 客户端缓存', 'UCenter client cache') },
    ],
  },
  {
    id: 'dedecms',
    name: t('织梦 DedeCMS', 'DedeCMS'),
    writable: [
      { dir: 'data', holds: t('缓存与配置', 'cache and settings') },
      { dir: 'uploads', holds: t('上传文件', 'uploads'), noExec: true, noScripts: true },
      { dir: 'a', holds: t('生成的静态页面', 'generated pages'), noExec: true },
    ],
  },
  {
    id: 'phpmyadmin',
    name: t('phpMyAdmin', 'phpMyAdmin'),
    writable: [{ dir: 'tmp', holds: t('模板缓存与上传', 'template cache and uploads'), noExec: true }],
  },
];

/** Levels: upload guards decide first, then the writable folders, then the code (1 applies first). */
export const cmsTemplateLevels = { uploads: 10, writable: 20, code: 30 } as const;

/** The operations that change code: modify, create, delete, rename, modify time. */
const codeChanges: TamperRuleInput['ops'] = ['w', 'c', 'd', 'n', 't'];

/** A site root a template accepts: an absolute protected path without `*`. */
export function isTemplateRoot(value: string): boolean {
  return !value.includes('*') && isProtectedPath(value.trim());
}

/** `/var/www/site/` and `/var/www/site` are the same root; `/` stays `/`. */
function normalRoot(root: string): string {
  const trimmed = root.trim().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function cmsTemplateOf(id: CmsTemplateId): CmsTemplate {
  const found = cmsTemplates.find((template) => template.id === id);
  if (!found) throw new Error(`unknown CMS template ${id}`);
  return found;
}

/**
 * The rules of a template for a site root, remarks in `lang`. Every rule restricts every process
 * (`*`) and exempts none: a deploy tool that must write the code is added to the code rule's
 * exemptions by the user.
 */
export function cmsTemplateRules(id: CmsTemplateId, root: string, lang: Language): TamperRuleInput[] {
  const template = cmsTemplateOf(id);
  const base = normalRoot(root);
  const under = (dir: string) => (base === '/' ? `/${dir}` : `${base}/${dir}`);
  const name = template.name[lang];
  const zh = lang === 'zh-CN';
  const rule = (path: string, sub_path: string, level: number, ops: TamperRuleInput['ops'], remark: string): TamperRuleInput => ({
    enabled: true, path, sub_path, process: '*', exempt: [], level, ops, notify: true, remark,
  });

  const rules: TamperRuleInput[] = [];
  for (const w of template.writable) {
    if (w.noExec) {
      rules.push(rule(under(w.dir), '*', cmsTemplateLevels.uploads, ['x'],
        zh ? `${name}：禁止执行 ${w.dir}（${w.holds[lang]}）中的文件` : `${name}: nothing in ${w.dir} (${w.holds[lang]}) may be executed`));
    }
    if (w.noScripts) {
      rules.push(rule(under(w.dir), '*.php', cmsTemplateLevels.uploads, ['c', 'w', 'n'],
        zh ? `${name}：禁止在 ${w.dir} 中创建或改写 PHP 脚本（防止上传木马）` : `${name}: no PHP scripts may be created or changed in ${w.dir} (blocks uploaded web shells)`));
    }
  }
  for (const w of template.writable) {
    rules.push(rule(under(w.dir), '*', cmsTemplateLevels.writable, [],
      zh ? `${name}：允许写入 ${w.dir}（${w.holds[lang]}）` : `${name}: ${w.dir} stays writable (${w.holds[lang]})`));
  }
  rules.push(rule(base, '*', cmsTemplateLevels.code, codeChanges,
    zh ? `${name}：保护程序代码，禁止任何进程修改、创建、删除、重命名或改时间` : `${name}: protect the code; no process may modify, create, delete, rename or re-time it`));
  return rules;
}

/**
 * GET /tamper/templates: every template in the caller's language; with `id` and `root`, that
 * template's rules for the root as well (the preview the add form shows).
 */
export const tamperTemplatesQuerySchema = z
  .object({
    id: cmsTemplateIdSchema.optional(),
    root: z.string().max(4096, 'tamper_path_invalid').refine(isTemplateRoot, 'tamper_template_root_invalid').optional(),
    ...stampParam,
  })
  .strict();

export const cmsTemplateViewSchema = z.object({ id: cmsTemplateIdSchema, name: z.string(), writable: z.array(z.string()) });
export type CmsTemplateView = z.infer<typeof cmsTemplateViewSchema>;
export const cmsTemplatesAnswerSchema = z.object({ list: z.array(cmsTemplateViewSchema), rules: z.array(tamperRuleInputSchema) });
export type CmsTemplatesAnswer = z.infer<typeof cmsTemplatesAnswerSchema>;

export function cmsTemplateViews(lang: Language): CmsTemplateView[] {
  return cmsTemplates.map((template) => ({ id: template.id, name: template.name[lang], writable: template.writable.map((w) => w.dir) }));
}
