import { Space } from 'antd';
import { LogSettingsCard } from './LogSettingsCard.tsx';

/** System settings, basic tab. This build has the log settings card; the other cards come later. */
export function BasicSettingsPage() {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="system-basic-page">
      <LogSettingsCard />
    </Space>
  );
}
