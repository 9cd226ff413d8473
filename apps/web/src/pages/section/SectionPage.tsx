import { Card, Flex, Modal, Spin, Tabs, Typography } from 'antd';
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { SectionDef } from '@rampart/contracts';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { HelpButton } from '../help/HelpButton.tsx';
import { allowedTabs } from './allowedTabs.ts';
import { ModuleSwitch } from './ModuleSwitch.tsx';
import { NotInBuild } from './NotInBuild.tsx';
import { tabPages } from '../tabPages.ts';

/** The pages of modal tabs, loaded once each on first open. */
const modalPages = new Map<string, LazyExoticComponent<ComponentType>>();
function modalPage(key: string): LazyExoticComponent<ComponentType> | undefined {
  const loader = tabPages[key];
  if (!loader) return undefined;
  if (!modalPages.has(key)) modalPages.set(key, lazy(() => loader().then((m) => ({ default: m.Component }))));
  return modalPages.get(key);
}

/** A section: page header (title, module switch), its tabs, and the active tab below. */
export function SectionPage({ section }: { section: SectionDef }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // The tab bar's own shorter label where a section has one (tab_bar.*), else the page title.
  const tabLabel = (key: string) => (i18n.exists(`tab_bar.${section.key}.${key}`) ? t(`tab_bar.${section.key}.${key}`) : t(`tab.${section.key}.${key}`));
  const location = useLocation();
  const { data } = useUserInfo();
  const [modalTab, setModalTab] = useState<string | null>(null);
  const tabs = allowedTabs(section, data?.role.permissions ?? []);
  const active = location.pathname.split('/')[2];

  const ModalTabPage = modalTab ? modalPage(`${section.key}/${modalTab}`) : undefined;

  const onTab = (key: string) => {
    // Modal tabs open over the current tab instead of navigating.
    if (tabs.find((tab) => tab.key === key)?.modal) setModalTab(key);
    else void navigate(`${section.path}/${key}`);
  };

  return (
    <Card data-testid={`section-${section.key}`}>
      <Flex justify="space-between" align="center" gap={16}>
        <Flex align="center" gap={8}>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
            {t(`menu.${section.key}`)}
          </Typography.Title>
          <HelpButton section={section.key} />
        </Flex>
        {section.module && <ModuleSwitch module={section.module} permission={section.permission} />}
      </Flex>
      <Tabs
        activeKey={active}
        onChange={onTab}
        tabBarGutter={24}
        items={tabs.map((tab) => ({ key: tab.key, label: <span data-testid={`tab-${tab.key}`}>{tabLabel(tab.key)}</span> }))}
      />
      <Outlet />
      <Modal
        open={modalTab !== null}
        title={modalTab ? t(`tab.${section.key}.${modalTab}`) : null}
        footer={null}
        onCancel={() => setModalTab(null)}
        width={ModalTabPage ? 760 : undefined}
        destroyOnHidden
      >
        {modalTab && (ModalTabPage ? (
          <Suspense fallback={<Spin />}>
            <ModalTabPage />
          </Suspense>
        ) : <NotInBuild nameKey={`tab.${section.key}.${modalTab}`} />)}
      </Modal>
    </Card>
  );
}
