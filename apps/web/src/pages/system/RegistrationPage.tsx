import { TabPlaceholder } from '../section/TabPlaceholder.tsx';

/** System settings, soft_reg tab (being built). */
export function RegistrationPage() {
  return <TabPlaceholder />;
}
