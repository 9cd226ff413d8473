import { Card, Result, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LogSettingsCard } from './LogSettingsCard.tsx';
import { NtpCard } from './NtpCard.tsx';
import { ProtectionCard } from './ProtectionCard.tsx';
import { ServerAliasCard } from './ServerAliasCard.tsx';
import { basicKey, fetchBasic, fetchNtp, ntpKey } from './basicApi.ts';

/** A card's body until its data is there (or could not be read). */
function Loading({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  return <Card>{error ? <Result status="warning" title={t('sys_basic.load_failed')} subTitle={error.message} /> : <Spin />}</Card>;
}

/** System settings, basic tab: protection, server alias, NTP, then the log settings. */
export function BasicSettingsPage() {
  // A countdown is read again each minute; a sync the agent runs by itself is followed until it ends.
  const basic = useQuery({ queryKey: basicKey, queryFn: fetchBasic, refetchInterval: (q) => (q.state.data?.protection?.mode === 'temp_off' ? 60_000 : false) });
  const ntp = useQuery({ queryKey: ntpKey, queryFn: fetchNtp, refetchInterval: (q) => (q.state.data?.status.state === 'fetching' ? 1_000 : false) });
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="system-basic-page">
      {basic.data ? (
        <>
          {/* Keyed by the saved values, so a save or a refresh starts the forms from what is stored. */}
          <ProtectionCard key={`p-${basic.data.temp_minutes}`} view={basic.data} />
          <ServerAliasCard key={`a-${basic.data.server_alias}`} view={basic.data} />
        </>
      ) : (
        <Loading error={basic.error} />
      )}
      {ntp.data ? <NtpCard key={JSON.stringify(ntp.data.settings)} view={ntp.data} /> : <Loading error={ntp.error} />}
      <LogSettingsCard />
    </Space>
  );
}
