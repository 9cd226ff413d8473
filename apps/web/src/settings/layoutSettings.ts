import { storageKeys } from '../storage/keys.ts';

export type NavTheme = 'light' | 'dark' | 'realDark';
export type LayoutMode = 'side' | 'top';
export type ContentWidth = 'Fluid' | 'Fixed';

export interface LayoutSettings {
  navTheme: NavTheme;
  colorPrimary: string;
  colorWeak: boolean;
  layout: LayoutMode;
  contentWidth: ContentWidth;
  fixedHeader: boolean;
  fixSiderbar: boolean;
  autoHideHeader: boolean;
}

/** The seven primary colours; the key names each colour in the locales (settings.colors.<key>). */
export const primaryColors = [
  { key: 'teal', value: '#008388' },
  { key: 'daybreak', value: '#1677ff' },
  { key: 'purple', value: '#722ed1' },
  { key: 'magenta', value: '#eb2f96' },
  { key: 'volcano', value: '#fa541c' },
  { key: 'gold', value: '#faad14' },
  { key: 'green', value: '#52c41a' },
] as const;

/** Spec, section 9: dark navigation, teal, side menu, fluid, nothing fixed, colour-weak off. */
export const defaultLayoutSettings: LayoutSettings = {
  navTheme: 'dark',
  colorPrimary: '#008388',
  colorWeak: false,
  layout: 'side',
  contentWidth: 'Fluid',
  fixedHeader: false,
  fixSiderbar: false,
  autoHideHeader: false,
};

/**
 * The width each layout forces when it is chosen (spec: the side layout forces Fluid, the others
 * Fixed). Choice: in the top layout the user may still switch to Fluid afterwards; in the side
 * layout the width control is disabled.
 */
export function widthForLayout(layout: LayoutMode): ContentWidth {
  return layout === 'side' ? 'Fluid' : 'Fixed';
}

/** Applies a change, keeping the layout/width rule. */
export function applySettingChange(current: LayoutSettings, change: Partial<LayoutSettings>): LayoutSettings {
  const next = { ...current, ...change };
  if (change.layout && change.layout !== current.layout) next.contentWidth = widthForLayout(change.layout);
  if (next.layout === 'side') next.contentWidth = 'Fluid';
  return next;
}

function isHexColor(v: unknown): v is string {
  return typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v);
}

/** Reads the stored settings, dropping anything malformed in favour of the defaults. */
export function loadLayoutSettings(): LayoutSettings {
  let raw: Partial<Record<keyof LayoutSettings, unknown>> = {};
  try {
    raw = JSON.parse(localStorage.getItem(storageKeys.layout) ?? '{}') as typeof raw;
  } catch {
    raw = {};
  }
  const d = defaultLayoutSettings;
  const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
  const merged: LayoutSettings = {
    navTheme: raw.navTheme === 'light' || raw.navTheme === 'dark' || raw.navTheme === 'realDark' ? raw.navTheme : d.navTheme,
    colorPrimary: isHexColor(raw.colorPrimary) ? raw.colorPrimary : d.colorPrimary,
    colorWeak: bool(raw.colorWeak, d.colorWeak),
    layout: raw.layout === 'side' || raw.layout === 'top' ? raw.layout : d.layout,
    contentWidth: raw.contentWidth === 'Fluid' || raw.contentWidth === 'Fixed' ? raw.contentWidth : d.contentWidth,
    fixedHeader: bool(raw.fixedHeader, d.fixedHeader),
    fixSiderbar: bool(raw.fixSiderbar, d.fixSiderbar),
    autoHideHeader: bool(raw.autoHideHeader, d.autoHideHeader),
  };
  return applySettingChange(merged, {});
}

export function saveLayoutSettings(settings: LayoutSettings): void {
  localStorage.setItem(storageKeys.layout, JSON.stringify(settings));
}
