import { Alert, Button, Flex, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebsiteDiscoveredSite } from '@rampart/contracts';
import { switchModule } from '../../../api/endpoints.ts';
import { globalInfoKey } from '../../../session/useGlobalInfo.ts';
import { useCan, useUserInfo, userInfoKey } from '../../../session/useUserInfo.ts';
import { SiteModal } from '../../website/SiteModal.tsx';
import { discoverSites, fetchServers, websiteKey } from '../../website/websiteApi.ts';
import { homeIndexKey } from '../useHomeIndex.ts';

/**
 * Step three: the website module's discovery (`nginx -T`, `apachectl -S` through the agent) and its
 * add form, filled from the site; the first site saved here also turns website protection on.
 */
export function SitesStep() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canAdd = useCan('website', 'add');
  const canEnable = useCan('website', 'enable');
  const websiteOn = useUserInfo().data?.module_list.website === 1;
  const servers = useQuery({ queryKey: [...websiteKey, 'server'], queryFn: fetchServers, enabled: canAdd });
  const [sites, setSites] = useState<WebsiteDiscoveredSite[] | null>(null);
  const [adding, setAdding] = useState<WebsiteDiscoveredSite | null>(null);
  const discover = useMutation({ mutationFn: discoverSites, onSuccess: (data) => setSites(data.sites) });
  const protectedNames = new Set((servers.data?.list ?? []).flatMap((s) => s.server_names));

  const saved = async () => {
    setAdding(null);
    void queryClient.invalidateQueries({ queryKey: websiteKey });
    if (!websiteOn && canEnable) {
      await switchModule({ module: 'website', status: 1 }).catch(() => undefined);
      for (const queryKey of [homeIndexKey, userInfoKey, globalInfoKey]) void queryClient.invalidateQueries({ queryKey });
    }
  };

  if (!canAdd) return <Alert type="info" showIcon title={t('wizard.no_permission')} data-testid="wizard-sites" />;
  return (
    <Flex vertical gap={12} data-testid="wizard-sites">
      <Typography.Paragraph>{t('wizard.sites_intro')}</Typography.Paragraph>
      <Button loading={discover.isPending} onClick={() => discover.mutate()} style={{ alignSelf: 'flex-start' }} data-testid="wizard-sites-find">
        {t('wizard.sites_find')}
      </Button>
      {sites?.length === 0 && <Alert type="info" showIcon title={t('wizard.sites_none')} data-testid="wizard-sites-none" />}
      {sites?.map((s, i) => {
        const done = s.server_names.some((n) => protectedNames.has(n));
        return (
          <Flex key={`${s.source}-${i}`} gap={8} align="center" justify="space-between" data-testid={`wizard-site-${i}`}>
            <Space wrap>
              <Tag>{t(`web.server.software.${s.server}`)}</Tag>
              <span>{s.server_names.join(', ') || s.name}</span>
              <Typography.Text type="secondary">{s.listen.map((l) => `${l.address}:${l.port}`).join(', ')}</Typography.Text>
            </Space>
            {done ? (
              <Tag color="green">{t('wizard.sites_protected')}</Tag>
            ) : (
              <Button size="small" type="primary" onClick={() => setAdding(s)} data-testid={`wizard-site-${i}-protect`}>{t('wizard.sites_protect')}</Button>
            )}
          </Flex>
        );
      })}
      {adding && <SiteModal source={{ kind: 'discovered', site: adding }} onClose={() => setAdding(null)} onSaved={() => void saved()} />}
    </Flex>
  );
}
