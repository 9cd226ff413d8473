import { describe, expect, it } from 'vitest';
import {
  cmsTemplateIds, cmsTemplateRules, cmsTemplates, cmsTemplateViews, isBroadProtectedPath, isTemplateRoot, tamperRuleInputSchema, tamperTemplatesQuerySchema,
} from '../src/index.ts';

const root = '/var/www/site';

/** The rules of a template as `path level ops`, for reading the intent at a glance. */
const shape = (id: (typeof cmsTemplateIds)[number]) =>
  cmsTemplateRules(id, root, 'en-US').map((r) => `${r.path} ${r.sub_path} ${r.level} ${(r.ops ?? []).join('')}`);

describe('CMS templates', () => {
  it('every rule of every template is a valid rule for every process with no exemption, in both languages', () => {
    for (const id of cmsTemplateIds) {
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const rules = cmsTemplateRules(id, root, lang);
        expect(rules.length).toBeGreaterThan(1);
        for (const rule of rules) {
          const parsed = tamperRuleInputSchema.safeParse(rule);
          expect(parsed.success, `${id} ${JSON.stringify(rule)}`).toBe(true);
          expect(rule.process).toBe('*');
          expect(rule.exempt).toEqual([]);
          expect(rule.remark?.length).toBeGreaterThan(10);
          expect(rule.path === root || rule.path?.startsWith(`${root}/`)).toBe(true);
        }
        // One remark per purpose: no two rules say the same thing.
        expect(new Set(rules.map((r) => r.remark)).size).toBe(rules.length);
      }
    }
  });

  it('WordPress protects the code and keeps only its upload, cache and upgrade folders writable', () => {
    expect(shape('wordpress')).toEqual([
      '/var/www/site/wp-content/uploads * 10 x',
      '/var/www/site/wp-content/uploads *.php 10 cwn',
      '/var/www/site/wp-content/uploads * 20 ',
      '/var/www/site/wp-content/cache * 20 ',
      '/var/www/site/wp-content/upgrade * 20 ',
      '/var/www/site * 30 wcdnt',
    ]);
  });

  it('each CMS opens the folders it writes, before (a better level than) the code rule', () => {
    const writable: Record<string, string[]> = {
      drupal: ['sites/default/files'],
      joomla: ['images', 'cache', 'tmp', 'administrator/cache', 'logs'],
      discuz: ['data', 'data/attachment', 'uc_server/data', 'uc_client/data'],
      dedecms: ['data', 'uploads', 'a'],
      phpmyadmin: ['tmp'],
    };
    for (const [id, dirs] of Object.entries(writable)) {
      const rules = cmsTemplateRules(id as (typeof cmsTemplateIds)[number], root, 'en-US');
      const code = rules.filter((r) => r.path === root);
      expect(code).toHaveLength(1);
      expect(code[0]!.ops).toEqual(['w', 'c', 'd', 'n', 't']);
      const allows = rules.filter((r) => (r.ops ?? []).length === 0);
      expect(allows.map((r) => r.path)).toEqual(dirs.map((d) => `${root}/${d}`));
      for (const allow of allows) expect(allow.level).toBeLessThan(code[0]!.level);
      // Uploads-like folders deny execution before their allow rule decides.
      for (const deny of rules.filter((r) => r.ops?.includes('x'))) expect(deny.level).toBeLessThan(allows[0]!.level);
    }
  });

  it('keeps scripts allowed where the CMS compiles PHP (Drupal files, Discuz! data, phpMyAdmin tmp)', () => {
    const scripts = (id: (typeof cmsTemplateIds)[number]) => cmsTemplateRules(id, root, 'en-US').filter((r) => r.sub_path === '*.php').map((r) => r.path);
    expect(scripts('drupal')).toEqual([]);
    expect(scripts('phpmyadmin')).toEqual([]);
    expect(scripts('discuz')).toEqual([`${root}/data/attachment`]);
  });

  it('takes a root with or without its trailing slash; the root / gives a broad rule', () => {
    expect(cmsTemplateRules('drupal', `${root}/`, 'en-US')).toEqual(cmsTemplateRules('drupal', root, 'en-US'));
    const atRoot = cmsTemplateRules('phpmyadmin', '/', 'en-US');
    expect(atRoot.map((r) => r.path)).toEqual(['/tmp', '/tmp', '/']);
    expect(isBroadProtectedPath(atRoot.at(-1)!.path!)).toBe(true);
  });

  it('remarks and names come in the chosen language', () => {
    const zh = cmsTemplateRules('dedecms', root, 'zh-CN');
    expect(zh.at(-1)!.remark).toContain('织梦 DedeCMS：保护程序代码');
    expect(cmsTemplateViews('en-US').map((v) => v.name)).toEqual(cmsTemplates.map((c) => c.name['en-US']));
    expect(cmsTemplateViews('zh-CN').find((v) => v.id === 'dedecms')?.name).toBe('织梦 DedeCMS');
  });

  it('accepts only absolute roots without * in the query', () => {
    expect(isTemplateRoot('/srv/www')).toBe(true);
    for (const bad of ['srv/www', '/srv/*', '/srv/../etc', '']) expect(isTemplateRoot(bad)).toBe(false);
    expect(tamperTemplatesQuerySchema.safeParse({ id: 'wordpress', root: '/srv/www' }).success).toBe(true);
    expect(tamperTemplatesQuerySchema.safeParse({ id: 'typo3', root: '/srv/www' }).error?.issues[0]?.message).toBe('tamper_template_invalid');
    expect(tamperTemplatesQuerySchema.safeParse({ root: 'www' }).error?.issues[0]?.message).toBe('tamper_template_root_invalid');
  });
});
