import { LockOutlined, SaveOutlined, UnlockOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Flex, Form, InputNumber, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSettings, AccountStatus } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { StateTag } from '../tamper/StateTag.tsx';
import { accountKey, relockAccountFiles, saveAccountSettings, unlockAccountFiles } from './api.ts';

type FileRow = AccountStatus['files'][number];

const backendColor = { lsm: 'green', fanotify: 'orange', none: 'red' } as const;

/** What is locked, how the kernel enforces it, the settings, and "off for N minutes". */
export function LockCard({ status, groups }: { status: AccountStatus; groups: readonly string[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useCan('account', 'edit');
  const canUnlock = useCan('account', 'disable');
  const canRelock = useCan('account', 'enable');
  const [edited, setEdited] = useState<AccountSettings | null>(null);
  const [minutes, setMinutes] = useState<number | null>(30);
  const draft = edited ?? status.settings;
  // fanotify denies the write-open (which stops useradd) but not a copy renamed over the file.
  const partial = status.notes.includes('account_fanotify_rename');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: accountKey });
  const save = useMutation({ mutationFn: saveAccountSettings, onSuccess: () => (setEdited(null), refresh()) });
  const unlock = useMutation({ mutationFn: unlockAccountFiles, onSettled: refresh });
  const relock = useMutation({ mutationFn: relockAccountFiles, onSettled: refresh });

  const columns: TableColumnsType<FileRow> = [
    { key: 'path', title: t('account.file'), dataIndex: 'path', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { key: 'locked', title: t('account.chosen'), dataIndex: 'locked', width: 120, render: (v: boolean) => (v ? t('account.yes') : t('account.no')) },
    { key: 'state', title: t('account.state'), dataIndex: 'state', width: 160, render: (v: FileRow['state'], row, index) => <span data-testid={`account-file-state-${row.file}`}><StateTag state={v} id={index} /></span> },
  ];

  return (
    <Card title={t('account.lock_title')} size="small" data-testid="account-lock">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Flex gap={8} wrap align="center">
          <Tag color={backendColor[status.backend]} data-testid="account-backend">{t(`account.backend_${status.backend}`)}</Tag>
          <Tag color={status.user_create_blocked ? 'green' : partial ? 'orange' : 'default'} data-testid="account-user-create">
            {t(status.user_create_blocked ? 'account.user_create_blocked' : partial ? 'account.user_create_partial' : 'account.user_create_open')}
          </Tag>
        </Flex>
        {status.notes.map((note) => (
          <Alert key={note} type="warning" showIcon title={t(`account.note.${note}`, { defaultValue: note })} data-testid={`account-note-${note}`} />
        ))}
        <Table<FileRow> rowKey="file" size="small" pagination={false} columns={columns} dataSource={status.files} locale={{ emptyText: <EmptyHint text={t('empty.account.files')} /> }} />

        <Form layout="vertical">
          <Form.Item extra={t('account.lock_files_hint')}>
            <Checkbox disabled={!canEdit} checked={draft.lock_files} onChange={(e) => setEdited({ ...draft, lock_files: e.target.checked })} data-testid="account-lock-files">
              {t('account.lock_files')}
            </Checkbox>
          </Form.Item>
          <Form.Item label={t('account.locked_groups')} extra={t('account.locked_groups_hint')}>
            <Select
              mode="multiple"
              disabled={!canEdit}
              value={draft.locked_groups}
              options={groups.map((name) => ({ value: name, label: name }))}
              onChange={(locked_groups: string[]) => setEdited({ ...draft, locked_groups })}
              placeholder={t('account.locked_groups_placeholder')}
              data-testid="account-locked-groups"
            />
          </Form.Item>
        </Form>
        {canEdit && (
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => save.mutate(draft)} data-testid="account-save">
            {t('account.save')}
          </Button>
        )}

        <Typography.Title level={5}>{t('account.unlock_title')}</Typography.Title>
        {status.unlocked_until !== null ? (
          <Flex gap={8} align="center" wrap>
            <Alert type="info" showIcon title={t('account.unlocked_until', { at: new Date(status.unlocked_until).toLocaleString() })} data-testid="account-unlocked-until" />
            {canRelock && (
              <Button icon={<LockOutlined />} loading={relock.isPending} onClick={() => relock.mutate()} data-testid="account-relock">
                {t('account.relock')}
              </Button>
            )}
          </Flex>
        ) : (
          <Flex gap={8} align="center" wrap>
            <Typography.Text type="secondary">{t('account.unlock_hint')}</Typography.Text>
            <InputNumber min={1} max={1440} value={minutes} onChange={setMinutes} disabled={!canUnlock} addonAfter={t('account.minutes')} data-testid="account-unlock-minutes" />
            {canUnlock && (
              <Button icon={<UnlockOutlined />} loading={unlock.isPending} onClick={() => unlock.mutate(minutes ?? 0)} data-testid="account-unlock">
                {t('account.unlock')}
              </Button>
            )}
          </Flex>
        )}
      </Space>
    </Card>
  );
}
