import { Alert, Button, Modal, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DownloadState } from './useLogDownload.ts';

/** What the export is doing, with Cancel at every step until the file is saved. */
export function DownloadModal({ state, onCancel, onClose, onAgain }: {
  state: DownloadState;
  onCancel: () => void;
  onClose: () => void;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const active = state.phase === 'starting' || state.phase === 'packing' || state.phase === 'countdown' || state.phase === 'fetching';

  const status = () => {
    switch (state.phase) {
      case 'starting':
        return t('log.download.starting');
      case 'packing':
        return t('log.download.packing', { count: state.rows });
      case 'countdown':
        return t('log.download.countdown', { seconds: state.seconds, count: state.rows });
      case 'fetching':
        return t('log.download.fetching', { count: state.rows });
      case 'done':
        return t('log.download.done', { count: state.rows });
      case 'failed':
        return t(`log.download.${state.reason === 'cancelled' ? 'cancelled' : 'failed'}`);
      default:
        return '';
    }
  };

  return (
    <Modal
      open={state.phase !== 'idle'}
      title={t('log.download.title')}
      onCancel={active ? onCancel : onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        active ? (
          <Button danger onClick={onCancel} data-testid="log-download-cancel">
            {t('common.cancel')}
          </Button>
        ) : (
          <Space>
            {state.phase === 'done' && (
              <Button onClick={onAgain} data-testid="log-download-again">
                {t('log.download.again')}
              </Button>
            )}
            <Button type="primary" onClick={onClose} data-testid="log-download-close">
              {t('log.download.close')}
            </Button>
          </Space>
        )
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="log-download-modal">
        {state.phase === 'failed' ? (
          <Alert type="error" showIcon title={status()} data-testid="log-download-status" />
        ) : (
          <Space>
            {active && <Spin size="small" />}
            <Typography.Text data-testid="log-download-status">{status()}</Typography.Text>
          </Space>
        )}
        <Typography.Text type="secondary" data-testid="log-download-keep">
          {t('log.download.keep')}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
