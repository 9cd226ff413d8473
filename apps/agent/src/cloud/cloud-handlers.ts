import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { CloudService } from './cloud-service.ts';

type CloudMethods = Extract<keyof AgentHandlers, `cloud.${string}`>;

/** Every `cloud.*` call. The service records each change as an operation event with its account. */
export function cloudHandlers(service: CloudService): Pick<AgentHandlers, CloudMethods> {
  return {
    'cloud.status': async () => service.status(),
    'cloud.keys.add': async ({ name, public_key, account, ip }) => service.addKey(name, public_key, account, ip),
    'cloud.keys.delete': async ({ ids, account, ip }) => service.deleteKeys(ids, account, ip),
    'cloud.feeds.import': async ({ bundle, account, ip }) => service.importBundle(bundle, account, ip),
    'cloud.feeds.add_url': async ({ url, interval_minutes, account, ip }) => service.addUrl(url, interval_minutes, account, ip),
    'cloud.feeds.update': async ({ id, ip }) => service.updateNow(id, ip),
    'cloud.feeds.edit': async ({ id, interval_minutes, account, ip }) => service.editInterval(id, interval_minutes, account, ip),
    'cloud.feeds.set_enabled': async ({ ids, enabled, account, ip }) => service.setFeedsEnabled(ids, enabled, account, ip),
    'cloud.feeds.delete': async ({ ids, account, ip }) => service.deleteFeeds(ids, account, ip),
    'cloud.settings.set': async ({ settings, account, ip }) => service.setSettings(settings, account, ip),
  };
}
