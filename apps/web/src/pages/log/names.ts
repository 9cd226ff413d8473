import { eventLevelNames, eventLevels, eventModuleNames, type EventLevel, type Language } from '@rampart/contracts';

/*
 * Module and level names come from the event catalogue in @rampart/contracts, the same table the
 * server renders rows with, so a filter option and a row's cell read the same in either language.
 */

/** A module's name; a row's module may already be a name (rows come in the reader's language). */
export function moduleName(module: string, lang: Language): string {
  return eventModuleNames[module]?.[lang] ?? module;
}

export function levelName(level: string, lang: Language): string {
  return eventLevelNames[level]?.[lang] ?? level;
}

/** The level key of a row's level, whether the row carries the key or its name in either language. */
export function levelKeyOf(level: string): EventLevel | undefined {
  return eventLevels.find((key) => key === level || Object.values(eventLevelNames[key] ?? {}).includes(level));
}

const levelColours: Record<EventLevel, string> = { info: 'blue', warning: 'orange', critical: 'red' };

export function levelColour(level: string): string | undefined {
  const key = levelKeyOf(level);
  return key ? levelColours[key] : undefined;
}
