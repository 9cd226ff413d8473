import { CloudDownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Divider, Flex, Form, Input, Modal, Progress, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMessageKey, translate, type ReleaseView } from '@rampart/contracts';
import { useLanguage } from '../../../i18n/useLanguage.ts';
import { useCan } from '../../../session/useUserInfo.ts';
import { formatDate, formatSize } from '../../../utils/format.ts';
import { fetchRelease, postRelease, releaseKey } from './homeUpdateApi.ts';

/** Polled while a download runs: bytes of total. */
const pollMs = 500;

function CheckState({ view }: { view: ReleaseView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { check } = view;
  const reason = check.reason && isMessageKey(check.reason) ? translate(lang, check.reason, { detail: check.detail, url: view.url }) : check.reason;
  const text = t(`home_update.release_state.${check.state}`, { version: check.latest?.version ?? '', date: check.latest ? formatDate(Date.parse(check.latest.date)) : '', detail: check.detail, reason });
  const type = check.state === 'available' ? 'info' : check.state === 'up_to_date' ? 'success' : check.state === 'not_checked' ? 'info' : 'warning';
  return (
    <Flex vertical gap={8}>
      <Alert type={type} showIcon title={text} data-testid="release-check-state" />
      {check.state === 'available' && check.latest && (
        <>
          <Typography.Text type="secondary">{t('home_update.release_size', { file: check.latest.file, size: formatSize(check.latest.size) })}</Typography.Text>
          <Typography.Text strong>{t('home_update.release_notes')}</Typography.Text>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="release-notes">{check.latest.notes[lang]}</Typography.Paragraph>
        </>
      )}
    </Flex>
  );
}

function DownloadState({ view }: { view: ReleaseView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { download } = view;
  if (download.state === 'idle') return null;
  if (download.state === 'downloading') {
    return (
      <Flex vertical data-testid="release-downloading">
        <Typography.Text>{t('home_update.release_downloading', { version: download.version, bytes: formatSize(download.bytes), total: formatSize(download.total) })}</Typography.Text>
        <Progress percent={download.total ? Math.floor((download.bytes / download.total) * 100) : 0} />
      </Flex>
    );
  }
  if (download.state === 'staged') return <Alert type="success" showIcon title={t('home_update.release_staged', { version: download.version, path: download.staged_path })} data-testid="release-staged" />;
  const reason = isMessageKey(download.reason) ? translate(lang, download.reason, { detail: download.detail }) : download.reason;
  return <Alert type="error" showIcon title={t('home_update.release_failed', { version: download.version, reason })} data-testid="release-failed" />;
}

function ReleaseSettings({ view, onSaved }: { view: ReleaseView; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ url: string; public_key: string }>();
  const save = useMutation({ mutationFn: (values: { url: string; public_key: string }) => postRelease({ action: 'settings', url: values.url.trim(), public_key: values.public_key.trim() }), onSuccess: onSaved });
  return (
    <Form form={form} layout="vertical" initialValues={{ url: view.url_configured ? view.url : '', public_key: '' }} onFinish={(values) => save.mutate(values)}>
      <Form.Item name="url" label={t('home_update.release_url')}>
        <Input data-testid="release-url" />
      </Form.Item>
      <Form.Item name="public_key" label={t('home_update.release_public_key')}>
        <Input data-testid="release-key" />
      </Form.Item>
      <Button htmlType="submit" loading={save.isPending} data-testid="release-save">{t('home_update.release_save')}</Button>
    </Form>
  );
}

/** The version figure's "check for updates": the current version, the source's newest release, download with progress, and the settings. */
export function ReleaseUpdateButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useCan('home', 'edit');
  const [open, setOpen] = useState(false);
  const view = useQuery({
    queryKey: releaseKey,
    queryFn: () => fetchRelease(false),
    enabled: open,
    refetchInterval: (query) => (query.state.data?.download.state === 'downloading' ? pollMs : false),
  });
  const set = (next: ReleaseView) => queryClient.setQueryData(releaseKey, next);
  const check = useMutation({ mutationFn: () => fetchRelease(true), onSuccess: set });
  const download = useMutation({ mutationFn: () => postRelease({ action: 'download' }), onSuccess: set });
  const data = view.data;
  return (
    <>
      <Button size="small" icon={<SearchOutlined />} onClick={() => setOpen(true)} data-testid="release-open">
        {t('home_update.release_button')}
      </Button>
      <Modal open={open} title={t('home_update.release_title')} footer={null} width={620} onCancel={() => setOpen(false)} destroyOnHidden>
        {data && (
          <Flex vertical gap={12}>
            <Typography.Text>{t('home_update.release_current', { version: data.current })}</Typography.Text>
            <Typography.Text type="secondary">{t('home_update.release_source', { url: data.url_configured ? data.url : `${data.url} ${t('home_update.release_source_default')}` })}</Typography.Text>
            <Typography.Text type="secondary">{data.key_id ? t('home_update.release_key', { id: data.key_id }) : t('home_update.release_no_key')}</Typography.Text>
            <CheckState view={data} />
            <DownloadState view={data} />
            <Flex gap={8}>
              <Button icon={<SearchOutlined />} loading={check.isPending} onClick={() => check.mutate()} data-testid="release-check">{t('home_update.release_check')}</Button>
              {canEdit && data.check.state === 'available' && data.download.state !== 'downloading' && (
                <Button type="primary" icon={<CloudDownloadOutlined />} loading={download.isPending} onClick={() => download.mutate()} data-testid="release-download">{t('home_update.release_download')}</Button>
              )}
            </Flex>
            {canEdit && (
              <>
                <Divider />
                <Typography.Text strong>{t('home_update.release_settings')}</Typography.Text>
                <ReleaseSettings view={data} onSaved={() => void view.refetch()} />
              </>
            )}
          </Flex>
        )}
      </Modal>
    </>
  );
}
