import { argv, exit, stderr } from 'node:process';

/** `rampart <command> ...`: each command lives in its own file under commands/. */
const commands: Record<string, { summary: string; load: () => Promise<{ run(args: string[]): Promise<number> }> }> = {
  start: { summary: 'run the whole product on this machine', load: () => import('./commands/start.ts') },
  licence: { summary: 'licence issue --days N --transfers N  (vendor: issue a licence code)', load: () => import('./commands/licence.ts') },
  admin: { summary: 'admin reset-password  (print a new admin password once)', load: () => import('./commands/admin.ts') },
  portal: { summary: 'portal [reset]  (panel address settings; reset lifts safe entry, domain and IP limits: the way back in)', load: () => import('./commands/portal.ts') },
  firewall: { summary: 'firewall [off]  (the firewall stays in the kernel when Rampart stops; off removes it deliberately)', load: () => import('./commands/firewall.ts') },
  trust: { summary: 'trust --url PANEL_URL --user ACCOUNT  (trust terminal: keeps this computer\'s address on the super whitelist while it runs; --help)', load: () => import('./commands/trust.ts') },
  'login-check': { summary: 'login-check [off|loose|strict] | reset-totp --username NAME  (sign-in verification, the way back in)', load: () => import('./commands/login-check.ts') },
};

function usage(): string {
  return ['usage: rampart <command>', ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`)].join('\n') + '\n';
}

const [name, ...rest] = argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) {
  stderr.write(usage());
  exit(name ? 2 : 0);
} else {
  const mod = await command.load();
  exit(await mod.run(rest));
}
