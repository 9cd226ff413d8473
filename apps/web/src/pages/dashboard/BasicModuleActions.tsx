import { Alert, App, Button, Space } from 'antd';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ModuleSwitchResult } from '@rampart/contracts';
import { switchModule } from '../../api/endpoints.ts';
import { globalInfoKey } from '../../session/useGlobalInfo.ts';
import { useCan, userInfoKey } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { homeIndexKey } from './useHomeIndex.ts';

/**
 * Open or close every basic module in one click (module 'basic'); closing asks first. Opening says
 * which modules it opened and which it could not, with why (a module not in this build stays off).
 */
export function BasicModuleActions() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<ModuleSwitchResult | null>(null);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEnable = useCan('home', 'enable');
  const canDisable = useCan('home', 'disable');
  const mutation = useMutation({
    mutationFn: (status: 0 | 1) => switchModule({ module: 'basic', status }),
    onMutate: () => setOpened(null),
    onSuccess: (result, status) => setOpened(status === 1 && result ? result : null),
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
    <Space orientation="vertical" size={8}>
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
      {opened && <OpenedResult result={opened} onClose={() => setOpened(null)} />}
    </Space>
  );
}

/** What "open all basic modules" did: the modules it turned on, and those it could not with why. */
function OpenedResult({ result, onClose }: { result: ModuleSwitchResult; onClose: () => void }) {
  const { t } = useTranslation();
  const list = (items: string[]) => items.join(t('dashboard.list_separator'));
  const openedText = result.switched.length > 0
    ? t('dashboard.basic_opened', { modules: list(result.switched.map((m) => t(`module.${m}`))) })
    : t('dashboard.basic_opened_none');
  const notOpened = result.not_switched.map(({ module, reason }) =>
    t('dashboard.basic_not_opened_item', { name: t(`module.${module}`), reason: t(`dashboard.not_switched_reason.${reason}`) }));
  return (
    <Alert
      type={notOpened.length > 0 ? 'warning' : 'success'}
      showIcon
      closable
      onClose={onClose}
      data-testid="open-basic-result"
      title={<span data-testid="open-basic-opened">{openedText}</span>}
      description={notOpened.length > 0 ? <span data-testid="open-basic-not-opened">{t('dashboard.basic_not_opened', { modules: list(notOpened) })}</span> : undefined}
    />
  );
}
