import { basicModules, modulesInBuild } from '@rampart/contracts';
import { fail, notApplicable, pass, text, type AuditCheck } from './check.ts';

/** Rampart's own protection: a module of this build that is switched off protects nothing. */
export const rampartChecks: AuditCheck[] = [
  {
    id: 'rampart.modules_off',
    cisSection: '',
    category: 'rampart',
    level: 'warning',
    title: text('Rampart 的防护模块未开启', 'Rampart protection modules are off'),
    advice: text('在首页或各模块页开启这些防护模块', 'Switch these modules on from the home page or their own pages'),
    uses: [],
    run: (facts) => {
      if (!facts.moduleFlags) return notApplicable('module switches not given');
      const flags = facts.moduleFlags;
      const off = basicModules.filter((m) => modulesInBuild.includes(m) && flags[m] !== 1);
      return off.length === 0 ? pass({ note: 'every basic module of this build is on' }) : fail(...off.map((m) => ({ found: `${m} off`, expected: `${m} on` })));
    },
  },
];
