import { commonAreaRef } from '@rampart/contracts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import { rulesUsing } from './common-areas-repo.ts';
import type { FirewallService } from './firewall-service.ts';

type AreaMethods = Extract<keyof AgentHandlers, `areas.${string}`>;

const nothing = async () => undefined;

/**
 * The agent calls of the common areas. An edit of an area that rules use is a firewall change like
 * any other: its rules are re-applied, and one that cuts the administrator off goes on probation.
 */
export function commonAreaHandlers(service: FirewallService): Pick<AgentHandlers, AreaMethods> {
  const { commonAreas, rules } = service;

  return {
    'areas.list': async ({ keyword, offset, limit }) => commonAreas.page(keyword, offset, limit, rules.all()),

    'areas.save': async ({ area, guard }) => {
      let savedId: number | null = null;
      const change = await service.guarded(guard, () => {
        const now = service.now();
        const { id, ...fields } = area;
        if (commonAreas.nameTaken(fields.name, id ?? null)) return 'area_name_taken';
        if (id === undefined) {
          const created = commonAreas.insert(fields, now);
          savedId = created;
          // A new area is used by no rule yet: nothing to apply.
          return { changed: 1, undo: () => void commonAreas.delete([created]), kernel: nothing };
        }
        const before = commonAreas.get(id);
        if (!before) return 'area_not_found';
        commonAreas.update(id, fields, now);
        savedId = id;
        const used = rulesUsing(rules.all(), id) > 0;
        return { changed: 1, undo: () => commonAreas.restore(before), kernel: used ? () => service.refreshRules() : nothing };
      });
      // Other modules' rules that name this area (process protection) are planned again with its new members.
      if (!change.refused && savedId !== null && area.id !== undefined) {
        for (const user of service.commonAreaUsers) await user.changed(commonAreaRef(savedId));
      }
      return { ...change, id: change.refused ? null : savedId };
    },

    'areas.delete': ({ ids }) =>
      service.serial(async () => {
        const all = rules.all();
        const refs = new Set(ids.map(commonAreaRef));
        const using =
          all.filter((rule) => rule.areas.some((code) => refs.has(code))).length +
          service.commonAreaUsers.reduce((n, user) => n + [...refs].reduce((m, ref) => m + user.uses(ref), 0), 0);
        if (using > 0) return { changed: 0, refused: 'area_in_use' as const, rules: using };
        return { changed: commonAreas.delete(ids), refused: null, rules: 0 };
      }),
  };
}
