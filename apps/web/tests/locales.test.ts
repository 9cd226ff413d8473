import { describe, expect, it } from 'vitest';
import { hiddenPages, loadLevels, moduleKeys, roleIds, sections } from '@rampart/contracts';
import enUS from '../src/locales/en-US.ts';
import zhCN from '../src/locales/zh-CN.ts';
import enUSPages from '../src/locales/en-US.pages.ts';
import zhCNPages from '../src/locales/zh-CN.pages.ts';

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const en = flatten({ ...enUS, ...enUSPages } as Tree);
const zh = flatten({ ...zhCN, ...zhCNPages } as Tree);

describe('locales', () => {
  it('zh-CN and en-US have exactly the same keys', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('the core half and the page half share no top-level key (the page half is merged in after sign-in)', () => {
    for (const [core, pages] of [[enUS, enUSPages], [zhCN, zhCNPages]] as const) {
      expect(Object.keys(core).filter((key) => key in pages)).toEqual([]);
    }
  });

  it('no text is empty', () => {
    for (const [name, map] of [['en-US', en], ['zh-CN', zh]] as const) {
      const empty = [...map].filter(([, v]) => v.trim() === '').map(([k]) => k);
      expect(empty, `${name} empty texts`).toEqual([]);
    }
  });

  it('has a title for every section, tab and hidden page of the route table', () => {
    const needed = [
      ...sections.map((s) => `menu.${s.key}`),
      ...sections.flatMap((s) => s.tabs.map((t) => `tab.${s.key}.${t.key}`)),
      ...hiddenPages.map((p) => `page.${p.key}`),
      ...roleIds.map((r) => `role.${r}`),
      ...moduleKeys.flatMap((m) => [`module.${m}`, `module_off_confirm.${m}`]),
      ...loadLevels.map((l) => `load.${l}`),
      'kernel_cause.not_root',
      'kernel_cause.nft_missing',
    ];
    expect(needed.filter((k) => !en.has(k))).toEqual([]);
  });

  it('says what the specification says', () => {
    expect(en.get('kernel_cause.not_root')).toBe('the agent is not running as root');
    expect(en.get('kernel_cause.nft_missing')).toBe('nftables (nft) is not installed');
    expect(en.get('register.agree_required')).toBe('Please Agree to the License Agreement');
    expect(en.get('logout.confirm')).toBe('Sure to logout of the system?');
    expect(en.get('page.no_permission')).toBe('This account has no permission');
    expect([en.get('load.light'), en.get('load.heavy'), en.get('load.too_heavy')]).toEqual(['light', 'heavy', 'too heavy']);
  });
});
