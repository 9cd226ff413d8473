import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Input, Table, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CloudKey } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { addKey, cloudKey, deleteKeys } from './api.ts';

/** The pinned public keys: a bundle imports only when one of these signed it. */
export function KeysCard({ keys }: { keys: readonly CloudKey[] }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('cloud', 'add');
  const canDelete = useCan('cloud', 'delete');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: cloudKey });
  const add = useMutation({ mutationFn: () => addKey(name.trim(), value.trim()), onSuccess: () => { setName(''); setValue(''); }, onSettled: refresh });
  const remove = useMutation({ mutationFn: (id: number) => deleteKeys([id]), onSettled: refresh });
  const columns: TableColumnsType<CloudKey> = [
    { title: t('cloud.key_name'), dataIndex: 'name' },
    { title: t('cloud.key_id'), dataIndex: 'key_id', render: (id: string) => <Typography.Text code>{id}</Typography.Text> },
    { title: t('cloud.key_value'), dataIndex: 'public_key', render: (key: string) => <Typography.Text copyable style={{ fontFamily: 'monospace' }}>{key}</Typography.Text> },
    { title: t('cloud.date'), dataIndex: 'created_at', render: (at: number) => formatDateTime(at) },
    ...(canDelete
      ? [{
          title: t('cloud.actions'),
          key: 'actions',
          render: (_: unknown, key: CloudKey) => (
            <Button size="small" danger icon={<DeleteOutlined />} data-testid={`cloud-key-delete-${key.id}`}
              onClick={() => modal.confirm({ title: t('cloud.delete_key_confirm', { name: key.name }), onOk: () => remove.mutateAsync(key.id) })}>
              {t('cloud.delete')}
            </Button>
          ),
        }]
      : []),
  ];
  return (
    <Card size="small" title={t('cloud.keys_title')} data-testid="cloud-keys">
      {canAdd && (
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Input style={{ width: 180 }} placeholder={t('cloud.key_name')} value={name} onChange={(e) => setName(e.target.value)} data-testid="cloud-key-name" />
          <Input style={{ width: 420 }} placeholder={t('cloud.key_value')} value={value} onChange={(e) => setValue(e.target.value)} data-testid="cloud-key-value" />
          <Button type="primary" icon={<KeyOutlined />} loading={add.isPending} onClick={() => add.mutate()} data-testid="cloud-key-add">{t('cloud.key_add')}</Button>
        </Flex>
      )}
      <Table<CloudKey> rowKey="id" size="small" pagination={false} dataSource={[...keys]} columns={columns}
        locale={{ emptyText: <EmptyHint text={t('cloud.empty_keys')} next={t('cloud.empty_keys_next')} testId="cloud-keys-empty" /> }} data-testid="cloud-keys-table" />
    </Card>
  );
}
