import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  applySettingChange, defaultLayoutSettings, loadLayoutSettings, saveLayoutSettings, type LayoutSettings,
} from './layoutSettings.ts';

interface LayoutSettingsValue {
  settings: LayoutSettings;
  update(change: Partial<LayoutSettings>): void;
}

const Context = createContext<LayoutSettingsValue>({ settings: defaultLayoutSettings, update: () => {} });

/** Holds the layout settings, stores every change and applies colour-weak mode to the whole page. */
export function LayoutSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState(loadLayoutSettings);
  const update = useCallback((change: Partial<LayoutSettings>) => {
    setSettings((current) => {
      const next = applySettingChange(current, change);
      saveLayoutSettings(next);
      return next;
    });
  }, []);
  useEffect(() => {
    // The usual colour-weak aid: invert most of the colour range of the whole document.
    document.documentElement.style.filter = settings.colorWeak ? 'invert(80%)' : '';
  }, [settings.colorWeak]);
  const value = useMemo(() => ({ settings, update }), [settings, update]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useLayoutSettings(): LayoutSettingsValue {
  return useContext(Context);
}
