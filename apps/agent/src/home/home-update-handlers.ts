import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { ReleaseService } from '../release/release-service.ts';
import type { KernelUpdater } from './kernel-update.ts';
import type { VirlibUpdater } from './virlib-update.ts';

type Methods = 'home.update_kernel' | 'home.update_virlib' | 'release.status' | 'release.check' | 'release.download' | 'release.settings';

/** The home page's update calls: the driver update, the cloud library update, Rampart releases. */
export function homeUpdateHandlers(kernel: KernelUpdater, virlib: VirlibUpdater, release: ReleaseService): Pick<AgentHandlers, Methods> {
  return {
    'home.update_kernel': () => kernel.update(),
    'home.update_virlib': () => virlib.update(),
    'release.status': async ({ authority_url }) => ({ refused: null, detail: '', view: release.view(authority_url) }),
    'release.check': ({ authority_url }) => release.check(authority_url),
    'release.download': ({ authority_url }) => release.startDownload(authority_url),
    'release.settings': ({ url, public_key, authority_url }) => release.setSettings(url, public_key, authority_url),
  };
}
