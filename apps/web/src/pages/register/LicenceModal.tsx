import { Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchLicenceText } from '../../api/endpoints.ts';

/** The licence agreement text from GET /licence, shown as plain text. */
export function LicenceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const licence = useQuery({ queryKey: ['licence'], queryFn: fetchLicenceText, enabled: open });
  return (
    <Modal open={open} onCancel={onClose} onOk={onClose} okText={t('common.ok')} cancelButtonProps={{ style: { display: 'none' } }}
      title={licence.data?.title ?? t('register.agreement')} width={720}>
      {licence.isPending ? (
        <Spin />
      ) : (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', maxHeight: '60vh', overflow: 'auto' }} data-testid="licence-text">
          {licence.data?.text}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
