import { SyncOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../session/useUserInfo.ts';
import { testId } from '../../../utils/testId.ts';
import { homeIndexKey } from '../useHomeIndex.ts';
import { updateKernel } from './homeUpdateApi.ts';

/** The abnormal kernel status's "driver update": asks first, then the server's message says how it went. */
export function KernelUpdateButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const allowed = useCan('home', 'edit');
  const run = useMutation({ mutationFn: updateKernel, onSettled: () => void queryClient.invalidateQueries({ queryKey: homeIndexKey }) });
  if (!allowed) return null;
  const ask = () =>
    modal.confirm({
      title: t('home_update.kernel_confirm_title'),
      content: t('home_update.kernel_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('kernel-update-confirm'),
      onOk: () => void run.mutateAsync().catch(() => undefined),
    });
  return (
    <Button size="small" icon={<SyncOutlined />} loading={run.isPending} onClick={ask} data-testid="kernel-update">
      {t('home_update.kernel_button')}
    </Button>
  );
}
