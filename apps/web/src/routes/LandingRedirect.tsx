import { Navigate } from 'react-router-dom';
import { landingPath } from './paths.ts';
import { useUserInfo } from '../session/useUserInfo.ts';

/** '/' goes to the dashboard, or to the first section the role can see. */
export function LandingRedirect() {
  const { data } = useUserInfo();
  return <Navigate to={landingPath(data?.role.permissions ?? [])} replace />;
}
