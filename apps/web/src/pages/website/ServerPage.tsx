import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Modal, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebsiteDiscoveredSite, WebsiteServerList, WebsiteSiteView } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan, useUserInfo } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { WebsiteFrame } from './WebsiteFrame.tsx';
import { SiteModal, type SiteSource } from './SiteModal.tsx';
import { deleteServers, discoverSites, fetchServers, setServersRunning, setServersStatus, websiteKey } from './websiteApi.ts';

const serversKey = [...websiteKey, 'server'] as const;

/**
 * The local nginx / Apache sites found on this server. "Protect" opens the add modal filled from the
 * site (its listeners, host names and the suggested origin), so the user checks it before saving.
 */
function DiscoverModal({ sites, protectedNames, onClose, onProtect }: {
  sites: WebsiteDiscoveredSite[];
  protectedNames: ReadonlySet<string>;
  onClose: () => void;
  onProtect: (site: WebsiteDiscoveredSite) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal open width={760} title={t('web.server.discover_title')} footer={null} onCancel={onClose} destroyOnHidden>
      {sites.length === 0 ? (
        <Alert type="info" showIcon title={t('web.server.discover_none')} data-testid="web-server-discover-none" />
      ) : (
        <Flex vertical gap={8} data-testid="web-server-discover-list">
          <Typography.Paragraph type="secondary">{t('web.server.discover_hint')}</Typography.Paragraph>
          {sites.map((s, i) => {
            const already = s.server_names.some((n) => protectedNames.has(n));
            return (
              <Flex key={`${s.source}-${i}`} gap={8} align="center" justify="space-between" data-testid={`web-server-discovered-${i}`}>
                <Space wrap>
                  <Tag>{t(`web.server.software.${s.server}`)}</Tag>
                  <span>{s.server_names.join(', ') || s.name}</span>
                  <Typography.Text type="secondary">{s.listen.map((l) => `${l.address}:${l.port}`).join(', ')}</Typography.Text>
                  <Typography.Text type="secondary" code>{s.source}</Typography.Text>
                </Space>
                {already ? (
                  <Tag color="green">{t('web.server.already_protected')}</Tag>
                ) : (
                  <Button size="small" type="primary" onClick={() => onProtect(s)} data-testid={`web-server-discovered-${i}-protect`}>
                    {t('web.server.protect')}
                  </Button>
                )}
              </Flex>
            );
          })}
        </Flex>
      )}
    </Modal>
  );
}

/**
 * Spec section 4: after the website module is switched ON, if sites exist and none is open, offer to
 * open them all; on confirm every site's status is flipped ON and the list refreshed.
 */
function useOfferOpenAll(servers: WebsiteServerList | undefined, refresh: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const moduleOn = useUserInfo().data?.module_list.website === 1;
  const wasOn = useRef(moduleOn);
  useEffect(() => {
    const switchedOn = moduleOn && !wasOn.current;
    wasOn.current = moduleOn;
    if (!switchedOn || !servers || servers.list.length === 0 || servers.is_any_open) return;
    const ids = servers.list.map((s) => s.id);
    modal.confirm({
      title: t('web.server.open_all_title'),
      content: t('web.server.open_all', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('web-server-open-all-confirm'),
      onOk: () => setServersStatus(ids, 'on').then(refresh, () => undefined),
    });
  }, [moduleOn, servers, modal, t, refresh]);
}

function ServerBody() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('website', 'add');
  const canEdit = useCan('website', 'edit');
  const canDelete = useCan('website', 'delete');
  const servers = useQuery({ queryKey: serversKey, queryFn: fetchServers });
  const [editing, setEditing] = useState<SiteSource | null>(null);
  const [discovered, setDiscovered] = useState<WebsiteDiscoveredSite[] | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: serversKey });
  useOfferOpenAll(servers.data, refresh);

  const status = useMutation({ mutationFn: ({ id, on }: { id: number; on: boolean }) => setServersStatus([id], on ? 'on' : 'off'), onSettled: refresh });
  const running = useMutation({ mutationFn: ({ id, run }: { id: number; run: boolean }) => setServersRunning([id], run), onSettled: refresh });
  const remove = useMutation({ mutationFn: (ids: number[]) => deleteServers(ids), onSuccess: refresh });
  const discover = useMutation({ mutationFn: discoverSites, onSuccess: (data) => setDiscovered(data.sites) });

  const confirmDelete = (site: WebsiteSiteView) =>
    modal.confirm({
      title: t('web.server.delete_title'),
      content: t('web.server.delete_confirm', { name: site.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('web-server-delete-confirm') },
      onOk: () => remove.mutateAsync([site.id]).catch(() => undefined),
    });

  const columns: TableColumnsType<WebsiteSiteView> = [
    { key: 'name', title: t('web.server.name'), dataIndex: 'name' },
    {
      key: 'listen', title: t('web.server.listen'),
      render: (_v, s) => (
        <Space wrap size={4}>
          {s.listen.map((l) => (
            <Tag key={`${l.address}:${l.port}`} color={l.tls ? 'blue' : undefined}>
              {`${l.address}:${l.port}`}
              {l.tls ? ` ${t('web.server.tls_tag')}` : ''}
            </Tag>
          ))}
        </Space>
      ),
    },
    { key: 'names', title: t('web.server.server_names'), render: (_v, s) => s.server_names.join(', ') || t('web.server.any_host') },
    { key: 'upstreams', title: t('web.server.upstreams'), render: (_v, s) => s.upstreams.join(', ') },
    {
      key: 'status', title: t('web.server.status'), width: 100,
      render: (_v, s) => (
        <Switch
          checked={s.status === 'on'}
          disabled={!canEdit}
          loading={status.isPending && status.variables?.id === s.id}
          checkedChildren={t('common.on')}
          unCheckedChildren={t('common.off')}
          onChange={(on) => status.mutate({ id: s.id, on })}
          data-testid={`web-server-status-${s.id}`}
        />
      ),
    },
    {
      key: 'running', title: t('web.server.running'), width: 150,
      render: (_v, s) => (
        <Space>
          <Tag color={s.running ? 'green' : 'default'} data-testid={`web-server-running-${s.id}`}>{t(s.running ? 'web.server.running_yes' : 'web.server.running_no')}</Tag>
          {canEdit && (
            <Typography.Link onClick={() => running.mutate({ id: s.id, run: !s.running })} data-testid={`web-server-${s.running ? 'stop' : 'start'}-${s.id}`}>
              {t(s.running ? 'web.server.stop' : 'web.server.start')}
            </Typography.Link>
          )}
        </Space>
      ),
    },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('web.actions'), width: 130,
      render: (_v, s) => (
        <Space>
          {canEdit && <Typography.Link onClick={() => setEditing({ kind: 'edit', site: s })} data-testid={`web-server-edit-${s.id}`}>{t('web.edit')}</Typography.Link>}
          {canDelete && <Typography.Link type="danger" onClick={() => confirmDelete(s)} data-testid={`web-server-delete-${s.id}`}>{t('web.delete')}</Typography.Link>}
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={16}>
      <Space wrap>
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'new' })} data-testid="web-server-add">
            {t('web.server.add')}
          </Button>
        )}
        {canAdd && (
          <Button icon={<SearchOutlined />} loading={discover.isPending} onClick={() => discover.mutate()} data-testid="web-server-discover">
            {t('web.server.discover')}
          </Button>
        )}
      </Space>
      <Table<WebsiteSiteView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={servers.data?.list ?? []}
        loading={servers.isFetching}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{
          emptyText: (
            <EmptyHint
              text={t('empty.web.server')}
              next={canAdd ? t('empty.web.server_next', { add: t('web.server.add'), discover: t('web.server.discover') }) : t('empty.read_only')}
              testId="web-server-empty"
            />
          ),
        }}
        onRow={(s) => testId(`web-server-row-${s.id}`)}
        data-testid="web-server-table"
      />
      {editing && <SiteModal source={editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      {discovered && (
        <DiscoverModal
          sites={discovered}
          protectedNames={new Set(servers.data?.list.flatMap((s) => s.server_names) ?? [])}
          onClose={() => setDiscovered(null)}
          onProtect={(site) => {
            setDiscovered(null);
            setEditing({ kind: 'discovered', site });
          }}
        />
      )}
    </Flex>
  );
}

/** Protected sites: the gateway's reverse proxies, one per site. */
export function ServerPage() {
  return (
    <WebsiteFrame testId="web-server-page">
      <ServerBody />
    </WebsiteFrame>
  );
}
