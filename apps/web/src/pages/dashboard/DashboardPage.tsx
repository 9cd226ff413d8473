import { Alert, Button, Card, Flex, Result, Spin, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicModuleActions } from './BasicModuleActions.tsx';
import { HostFigures } from './HostFigures.tsx';
import { PowerActions } from './PowerActions.tsx';
import { TrustTerminalButton } from './TrustTerminalButton.tsx';
import { HelpButton } from '../help/HelpButton.tsx';
import { RateFigures } from './RateFigures.tsx';
import { StatusFigures } from './StatusFigures.tsx';
import { useHomeIndex } from './useHomeIndex.ts';
import { useLiveRates } from './useLiveRates.ts';
import { QuickWizard } from './wizard/QuickWizard.tsx';
import { PerformancePanel } from './PerformancePanel.tsx';
import { WizardOffer } from './wizard/WizardOffer.tsx';
import { useCan } from '../../session/useUserInfo.ts';

/** The home page: real figures from GET /home/index, rates live over the websocket. */
export function DashboardPage() {
  const { t } = useTranslation();
  const home = useHomeIndex();
  const connected = home.data?.agent === 'connected' && home.data.host !== null;
  const rates = useLiveRates(home.data?.rates ?? null, connected);
  const [wizardOpen, setWizardOpen] = useState(false);
  const canEdit = useCan('home', 'edit');

  if (home.isPending) {
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  }
  if (home.isError) return <Result status="warning" title={home.error.message} />;

  const data = home.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="dashboard">
      <WizardOffer onStart={() => setWizardOpen(true)} />
      {wizardOpen && <QuickWizard onClose={() => setWizardOpen(false)} />}
      <StatusFigures home={data} connected={connected} />
      {connected && data.host ? (
        <>
          <HostFigures host={data.host} />
          <RateFigures rates={rates} />
          <PerformancePanel />
        </>
      ) : (
        <Alert type="warning" showIcon title={t('dashboard.not_connected')} description={t('dashboard.not_connected_hint')} data-testid="dash-not-connected" />
      )}
      <Card size="small" title={t('dashboard.modules')} extra={<HelpButton section="dashboard" />}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <BasicModuleActions />
          {canEdit && <Button onClick={() => setWizardOpen(true)} data-testid="wizard-open">{t('wizard.open')}</Button>}
          <PowerActions />
          <TrustTerminalButton />
        </Space>
      </Card>
    </Space>
  );
}
