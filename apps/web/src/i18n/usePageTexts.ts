import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@rampart/contracts';
import { hasPageTexts, loadPageTexts } from './index.ts';

export type PageTextsState = 'ready' | 'loading' | 'failed';

/**
 * The console's page texts in the language shown: fetched after sign-in (the sign-in page does not
 * carry them). 'failed' when their chunk could not be fetched (offline, or the console was upgraded
 * under this tab); the caller offers a reload. Nothing is fetched while `enabled` is false.
 */
export function usePageTexts(enabled = true): PageTextsState {
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  const ready = hasPageTexts(lang);
  const [failedFor, setFailedFor] = useState<Language | null>(null);
  const [, setLoadedFor] = useState<Language | null>(null);
  useEffect(() => {
    if (ready || !enabled) return;
    let live = true;
    loadPageTexts(lang).then(
      () => { if (live) setLoadedFor(lang); },
      () => { if (live) setFailedFor(lang); },
    );
    return () => { live = false; };
  }, [lang, ready, enabled]);
  if (ready) return 'ready';
  return failedFor === lang ? 'failed' : 'loading';
}
