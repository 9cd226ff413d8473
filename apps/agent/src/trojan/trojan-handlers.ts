import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { TrojanService } from './trojan-service.ts';

type TrojanMethods = Extract<keyof AgentHandlers, `trojan.${string}`>;

/** Every `trojan.*` call. The service records each change as an operation event with its account. */
export function trojanHandlers(service: TrojanService): Pick<AgentHandlers, TrojanMethods> {
  return {
    'trojan.status': async () => service.status(),
    'trojan.settings.get': async () => service.settings(),
    'trojan.settings.set': async ({ settings, account }) => service.setSettings(settings, account),
    'trojan.dirs.list': async ({ keyword, offset, limit }) => service.dirPage(keyword, offset, limit),
    'trojan.dirs.add': async ({ dirs, account }) => service.addDirs(dirs, account),
    'trojan.dirs.edit': async ({ id, remark, account }) => service.editDir(id, remark, account),
    'trojan.dirs.set_enabled': async ({ ids, enabled, account }) => service.setDirsEnabled(ids, enabled, account),
    'trojan.dirs.delete': async ({ ids, account }) => service.deleteDirs(ids, account),
    'trojan.dirs.discover': async () => ({ list: await service.discover() }),
    'trojan.library.get': async () => service.library(),
    'trojan.library.set': async ({ library, account }) => service.setLibrary(library, account),
    'trojan.scan.start': async ({ kind, paths, account }) => {
      const started = await service.startScan(kind, paths ?? [], account);
      return { scan: started.scan, refused: started.refused, detail: started.detail ?? '' };
    },
    'trojan.scan.cancel': async ({ id, account }) => service.cancelScan(id, account),
    'trojan.scan.get': async ({ id }) => service.scan(id),
    'trojan.scan.list': async ({ kind, offset, limit }) => {
      const page = service.scans.scanPage(kind, offset, limit);
      const running = service.runningScan();
      return { total: page.total, list: page.list.map((scan) => (running && scan.id === running.id ? running : scan)) };
    },
    'trojan.results.list': async ({ scanId, watch, flaggedOnly, keyword, offset, limit }) =>
      service.scans.resultPage({ ...(scanId !== undefined ? { scanId } : {}), ...(watch !== undefined ? { watch } : {}), flaggedOnly, ...(keyword ? { keyword } : {}), offset, limit }),
    'trojan.results.handle': async ({ ids, action, account }) => service.handleResults(ids, action, account),
    'trojan.isolate.list': async ({ keyword, offset, limit }) => service.quarantine.list({ ...(keyword ? { keyword } : {}), offset, limit }),
    'trojan.isolate.source': async ({ id }) => service.quarantine.source(id),
    'trojan.isolate.restore': async ({ ids, overwrite, account }) => service.restoreIsolated(ids, overwrite, account),
    'trojan.isolate.delete': async ({ ids, account }) => service.deleteIsolated(ids, account),
  };
}
