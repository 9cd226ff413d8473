import { CloudDownloadOutlined, DatabaseOutlined, ImportOutlined, RollbackOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configBackupsKept, type ConfigBackupKind, type ConfigBackupView, type ConfigRestoreResult, type Probation } from '@rampart/contracts';
import { EmptyHint, addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { saveBlob } from '../../utils/download.ts';
import { formatDateTime, formatSize } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { ProbationModal } from '../firewall/ProbationModal.tsx';
import {
  configBackupsKey, deleteConfigBackup, downloadConfigBackup, exportConfig, fetchConfigBackups, makeConfigBackup, restoreConfigBackup, undoConfigRestore,
} from './configBackupApi.ts';
import { ConfigImportModal } from './ConfigImportModal.tsx';

const kindColor: Record<ConfigBackupKind, string> = { manual: 'blue', upload: 'purple', auto: 'gold' };

/**
 * System settings, config tab: export and import the configuration, and the server backups (make
 * one now, download, restore, delete). A restore replaces the whole configuration, so it is
 * confirmed first; the server backs the current one up before it, which "undo" restores.
 */
export function ConfigBackupPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = {
    export: useCan('system', 'export'),
    import: useCan('system', 'import'),
    add: useCan('system', 'add'),
    edit: useCan('system', 'edit'),
    remove: useCan('system', 'delete'),
  };
  const backups = useQuery({ queryKey: configBackupsKey, queryFn: fetchConfigBackups });
  const [importing, setImporting] = useState(false);
  const [probation, setProbation] = useState<Probation | null>(null);

  const refreshBackups = () => void queryClient.invalidateQueries({ queryKey: configBackupsKey });
  /** Everything may have changed (alias in the header, firewall tabs, log settings): read it all again. */
  const restored = (result: ConfigRestoreResult | undefined) => {
    setImporting(false);
    if (result?.probation) setProbation(result.probation);
    void queryClient.invalidateQueries();
  };

  const download = useMutation({
    mutationFn: async (file: string | null) => {
      const { blob, filename } = file === null ? await exportConfig() : await downloadConfigBackup(file);
      saveBlob(blob, filename ?? file ?? 'rampart-config.json');
    },
  });
  const backupNow = useMutation({ mutationFn: makeConfigBackup, onSuccess: refreshBackups });
  const restore = useMutation({ mutationFn: restoreConfigBackup, onSuccess: restored });
  const undo = useMutation({ mutationFn: undoConfigRestore, onSuccess: restored });
  const remove = useMutation({ mutationFn: deleteConfigBackup, onSettled: refreshBackups });
  const busy = restore.isPending || undo.isPending;

  const confirmRestore = (file: string) =>
    modal.confirm({
      title: t('sys_config.replace_title'),
      content: t('sys_config.replace_confirm', { name: file }),
      okText: t('sys_config.restore'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('cfg-restore-confirm') },
      onOk: () => restore.mutateAsync(file).catch(() => undefined),
    });
  const confirmUndo = () =>
    modal.confirm({
      title: t('sys_config.undo_title'),
      content: t('sys_config.undo_confirm'),
      okText: t('sys_config.undo'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('cfg-undo-confirm') },
      onOk: () => undo.mutateAsync().catch(() => undefined),
    });
  const confirmDelete = (file: string) =>
    modal.confirm({
      title: t('sys_config.delete_title'),
      content: t('sys_config.delete_confirm', { name: file }),
      okText: t('sys_config.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('cfg-delete-confirm') },
      onOk: () => remove.mutateAsync(file).catch(() => undefined),
    });

  const columns: TableColumnsType<ConfigBackupView> = [
    { key: 'file', title: t('sys_config.col.file'), dataIndex: 'file', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    {
      key: 'kind', title: t('sys_config.col.kind'), dataIndex: 'kind', width: 140,
      render: (v: ConfigBackupKind) => <Tag color={kindColor[v]}>{t(`sys_config.kind.${v}`)}</Tag>,
    },
    { key: 'version', title: t('sys_config.col.version'), dataIndex: 'software_version', width: 120 },
    { key: 'time', title: t('sys_config.col.time'), dataIndex: 'created_at', width: 180, render: (v: number) => formatDateTime(v) },
    { key: 'size', title: t('sys_config.col.size'), dataIndex: 'size', width: 100, render: (v: number) => formatSize(v) },
    {
      key: 'actions', title: t('sys_config.col.actions'), width: 220,
      render: (_v, row) => (
        <Space size={4}>
          {can.export && (
            <Button type="link" size="small" onClick={() => download.mutate(row.file)} data-testid={`cfg-download-${row.file}`}>
              {t('sys_config.download')}
            </Button>
          )}
          {can.edit && (
            <Button type="link" size="small" disabled={busy} onClick={() => confirmRestore(row.file)} data-testid={`cfg-restore-${row.file}`}>
              {t('sys_config.restore')}
            </Button>
          )}
          {can.remove && (
            <Button type="link" size="small" danger onClick={() => confirmDelete(row.file)} data-testid={`cfg-delete-${row.file}`}>
              {t('sys_config.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="cfg-page">
      <Card title={t('sys_config.file_title')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph>{t('sys_config.intro')}</Typography.Paragraph>
          <Typography.Text type="secondary">{t('sys_config.secrets_note')}</Typography.Text>
          <Space wrap>
            {can.export && (
              <Button icon={<CloudDownloadOutlined />} loading={download.isPending && download.variables === null} onClick={() => download.mutate(null)} data-testid="cfg-export">
                {t('sys_config.export')}
              </Button>
            )}
            {(can.import || can.add) && (
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="cfg-import">
                {t('sys_config.import')}
              </Button>
            )}
            {can.edit && (
              <Button icon={<RollbackOutlined />} loading={undo.isPending} disabled={busy} onClick={confirmUndo} data-testid="cfg-undo">
                {t('sys_config.undo')}
              </Button>
            )}
          </Space>
        </Space>
      </Card>
      <Card
        title={t('sys_config.backups_title')}
        extra={can.add && (
          <Button type="primary" icon={<DatabaseOutlined />} loading={backupNow.isPending} onClick={() => backupNow.mutate()} data-testid="cfg-backup-now">
            {t('sys_config.backup_now')}
          </Button>
        )}
      >
        <Table
          rowKey="file"
          size="middle"
          columns={columns}
          dataSource={backups.data?.list ?? []}
          loading={backups.isLoading || busy}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: <EmptyHint text={t('empty.sys.config')} next={addStep(t, can.add, t('sys_config.backup_now'))} testId="cfg-backups-empty" /> }}
          data-testid="cfg-backups"
        />
        <Typography.Text type="secondary">{t('sys_config.retention', { count: configBackupsKept })}</Typography.Text>
      </Card>
      {importing && (
        <ConfigImportModal
          onClose={() => setImporting(false)}
          onRestored={restored}
          onStored={() => {
            setImporting(false);
            refreshBackups();
          }}
        />
      )}
      {probation && (
        <ProbationModal
          probation={probation}
          onKept={() => {
            setProbation(null);
            void queryClient.invalidateQueries();
          }}
          onExpired={() => {
            setProbation(null);
            void queryClient.invalidateQueries();
          }}
          onDismissed={() => undefined}
        />
      )}
    </Space>
  );
}
