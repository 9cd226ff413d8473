import { App, Switch } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ModuleKey, PermissionKey, UserInfo } from '@rampart/contracts';
import { switchModule } from '../../api/endpoints.ts';
import { globalInfoKey } from '../../session/useGlobalInfo.ts';
import { useCan, userInfoKey, useUserInfo } from '../../session/useUserInfo.ts';
import { homeIndexKey } from '../dashboard/useHomeIndex.ts';
import { testId } from '../../utils/testId.ts';

/** The module's ON/OFF switch: ON posts at once; OFF asks first with the module's own message. */
export function ModuleSwitch({ module, permission }: { module: ModuleKey; permission: PermissionKey }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const info = useUserInfo().data;
  const canEnable = useCan(permission, 'enable');
  const canDisable = useCan(permission, 'disable');
  const on = info?.module_list[module] === 1;

  const mutation = useMutation({
    mutationFn: (status: 0 | 1) => switchModule({ module, status }),
    onSuccess: (_d, status) => {
      queryClient.setQueryData<UserInfo>(userInfoKey, (old) => (old ? { ...old, module_list: { ...old.module_list, [module]: status } } : old));
      void queryClient.invalidateQueries({ queryKey: globalInfoKey });
      void queryClient.invalidateQueries({ queryKey: homeIndexKey });
    },
  });

  const onChange = (checked: boolean) => {
    if (checked) {
      mutation.mutate(1);
      return;
    }
    const key = `module_off_confirm.${module}`;
    modal.confirm({
      title: t(`module.${module}`),
      content: i18n.exists(key) ? t(key) : t('module_off_confirm.generic'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('module-off-confirm'),
      onOk: () => mutation.mutateAsync(0).catch(() => undefined),
    });
  };

  return (
    <Switch
      checked={on}
      loading={mutation.isPending}
      disabled={on ? !canDisable : !canEnable}
      checkedChildren={t('common.on')}
      unCheckedChildren={t('common.off')}
      aria-label={t('module_page.switch_label')}
      onChange={onChange}
      data-testid="module-switch"
    />
  );
}
