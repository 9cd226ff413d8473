import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import { useUserInfo } from '../session/useUserInfo.ts';
import { documentTitle, type RouteHandle } from './title.ts';

function isRouteHandle(h: unknown): h is RouteHandle {
  return typeof h === 'object' && h !== null && typeof (h as RouteHandle).titleKey === 'string';
}

/** Keeps document.title on the deepest matched route's title. */
export function TitleSync() {
  const { t } = useTranslation();
  const matches = useMatches();
  const { data } = useUserInfo();
  const handle = [...matches].reverse().map((m) => m.handle).find(isRouteHandle);
  const title = documentTitle(handle ? t(handle.titleKey) : undefined, data?.server_alias);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
