import { fail, pass, text, type AuditCheck } from './check.ts';

/**
 * Kernel modules a server rarely needs (CIS Debian 12 sections 1.1.1 file system modules, 3.2
 * network protocol modules): each is a way in for a bug in code nobody uses.
 */
const modules: [string, string, 'kernel' | 'network'][] = [
  ['cramfs', '1.1.1', 'kernel'], ['freevxfs', '1.1.1', 'kernel'], ['hfs', '1.1.1', 'kernel'], ['hfsplus', '1.1.1', 'kernel'],
  ['jffs2', '1.1.1', 'kernel'], ['udf', '1.1.1', 'kernel'], ['usb-storage', '1.1.1', 'kernel'],
  // Not in CIS; Lynis STRG-1846: FireWire storage gives DMA access to memory to whatever is plugged in.
  ['firewire-core', '', 'kernel'], ['firewire-ohci', '', 'kernel'],
  ['dccp', '3.2', 'network'], ['sctp', '3.2', 'network'], ['rds', '3.2', 'network'], ['tipc', '3.2', 'network'],
];

const alias = (name: string) => name.replace(/-/g, '_');

export const kernelModuleChecks: AuditCheck[] = modules.map(([name, cisSection, category]) => ({
  id: `modules.${alias(name)}`,
  cisSection,
  category,
  level: 'hint',
  title: text(`未禁用内核模块 ${name}`, `Kernel module ${name} is not disabled`),
  advice: text(`在 /etc/modprobe.d/ 中写入 “install ${name} /bin/false” 与 “blacklist ${name}”`, `Write "install ${name} /bin/false" and "blacklist ${name}" in /etc/modprobe.d/`),
  uses: ['modprobe'],
  run: (facts) => {
    // modprobe treats - and _ alike in module names.
    const line = facts.modprobe.find((l) => {
      const [word, mod, target] = l.value.split(/\s+/);
      return mod !== undefined && alias(mod) === alias(name) && (word === 'install' ? /\/(false|true)$/.test(target ?? '') : false);
    });
    return line ? pass({ file: line.file, line: line.line, found: line.value }) : fail({ found: `no "install ${name} /bin/false"`, expected: `install ${name} /bin/false` });
  },
  fix: () => ({ kind: 'modprobe_dropin', modules: [name] }),
}));
