import { App, Button, Space } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { switchModule } from '../../api/endpoints.ts';
import { globalInfoKey } from '../../session/useGlobalInfo.ts';
import { useCan, userInfoKey } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { homeIndexKey } from './useHomeIndex.ts';

/** Open or close every basic module in one click (module 'basic'); closing asks first. */
export function BasicModuleActions() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEnable = useCan('home', 'enable');
  const canDisable = useCan('home', 'disable');
  const mutation = useMutation({
    mutationFn: (status: 0 | 1) => switchModule({ module: 'basic', status }),
    onSettled: () => {
      for (const queryKey of [homeIndexKey, userInfoKey, globalInfoKey]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  const close = () =>
    modal.confirm({
      title: t('dashboard.close_basic'),
      content: t('dashboard.close_basic_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('close-basic-confirm'),
      onOk: () => mutation.mutateAsync(0).catch(() => undefined),
    });
  return (
    <Space wrap>
      {canEnable && (
        <Button type="primary" loading={mutation.isPending && mutation.variables === 1} onClick={() => mutation.mutate(1)} data-testid="open-basic">
          {t('dashboard.open_basic')}
        </Button>
      )}
      {canDisable && (
        <Button loading={mutation.isPending && mutation.variables === 0} onClick={close} data-testid="close-basic">
          {t('dashboard.close_basic')}
        </Button>
      )}
    </Space>
  );
}
