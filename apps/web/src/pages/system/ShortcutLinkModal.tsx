import { Alert, Flex, Modal, QRCode, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.tsx';
import { testId } from '../../utils/testId.ts';
import { linkUrl } from './shortcutsApi.ts';

/** A new link, shown this once: its address to copy and a QR code to scan with a phone. */
export function ShortcutLinkModal({ name, path, onClose }: { name: string; path: string; onClose: () => void }) {
  const { t } = useTranslation();
  const url = linkUrl(path);
  return (
    <Modal
      open
      title={`${t('sys_shortcut.link_title')} · ${name}`}
      onOk={onClose}
      onCancel={onClose}
      okText={t('common.ok')}
      okButtonProps={testId('sc-link-close')}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="sc-link-modal">
        <Alert type="warning" showIcon title={t('sys_shortcut.link_once')} />
        <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="sc-link-url">{url}</Typography.Text>
        <CopyButton text={url} testid="sc-link-copy" />
        <Flex justify="center">
          <QRCode value={url} size={180} data-testid="sc-link-qr" />
        </Flex>
      </Space>
    </Modal>
  );
}
