import { Navigate } from 'react-router-dom';
import type { SectionDef } from '@rampart/contracts';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { defaultTabOf } from './allowedTabs.ts';

/** /<section> → /<section>/<default tab>. */
export function DefaultTabRedirect({ section }: { section: SectionDef }) {
  const { data } = useUserInfo();
  const tab = defaultTabOf(section, data?.role.permissions ?? []);
  return <Navigate to={tab ? `${section.path}/${tab}` : '/403'} replace />;
}
