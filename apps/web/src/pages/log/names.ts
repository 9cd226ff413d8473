import { eventLevelNames, eventModuleNames, type EventLevel, type Language } from '@rampart/contracts';

/*
 * Module and level names come from the event catalogue in @rampart/contracts, the same table the
 * server renders rows with, so a filter option and a row's cell read the same in either language.
 * Rows carry the module and level keys (contracts LogRow).
 */

export function moduleName(module: string, lang: Language): string {
  return eventModuleNames[module]?.[lang] ?? module;
}

export function levelName(level: string, lang: Language): string {
  return eventLevelNames[level]?.[lang] ?? level;
}

const levelColours: Record<EventLevel, string> = { info: 'blue', warning: 'orange', critical: 'red' };

export function levelColour(level: string): string | undefined {
  return levelColours[level as EventLevel];
}
