import { App, Space, Switch, Tooltip, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isModuleInBuild, type ModuleKey, type PermissionKey, type UserInfo } from '@rampart/contracts';
import { switchModule } from '../../api/endpoints.ts';
import { globalInfoKey } from '../../session/useGlobalInfo.ts';
import { useCan, userInfoKey, useUserInfo } from '../../session/useUserInfo.ts';
import { homeIndexKey } from '../dashboard/useHomeIndex.ts';
import { testId } from '../../utils/testId.ts';

/**
 * The module's ON/OFF switch: ON posts at once; OFF asks first with the module's own message.
 * A module whose engine is not in this build cannot be switched on: the switch is disabled and says why
 * (one that still reads on can be switched off).
 */
export function ModuleSwitch({ module, permission }: { module: ModuleKey; permission: PermissionKey }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const info = useUserInfo().data;
  const canEnable = useCan(permission, 'enable');
  const canDisable = useCan(permission, 'disable');
  const on = info?.module_list[module] === 1;
  const inBuild = isModuleInBuild(module);

  const mutation = useMutation({
    mutationFn: (status: 0 | 1) => switchModule({ module, status }),
    onSuccess: (result, status) => {
      // The console answers with every flag after the call: the switch shows what it stored.
      const moduleList = (old: UserInfo) => result?.modules ?? { ...old.module_list, [module]: status };
      queryClient.setQueryData<UserInfo>(userInfoKey, (old) => (old ? { ...old, module_list: moduleList(old) } : old));
      void queryClient.invalidateQueries({ queryKey: globalInfoKey });
      void queryClient.invalidateQueries({ queryKey: homeIndexKey });
      // The module's own page reads its state under its key (['firewall', 'status'], ['tamper', ...]):
      // a banner such as "the module is off" follows the switch at once, not when the page is left.
      void queryClient.invalidateQueries({ queryKey: [module] });
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

  const switchEl = (
    <Switch
      checked={on}
      loading={mutation.isPending}
      disabled={on ? !canDisable : !canEnable || !inBuild}
      checkedChildren={t('common.on')}
      unCheckedChildren={t('common.off')}
      aria-label={t('module_page.switch_label')}
      aria-describedby={inBuild ? undefined : 'module-switch-why'}
      onChange={onChange}
      data-testid="module-switch"
    />
  );
  if (inBuild) return switchEl;
  const why = t('module_page.switch_not_in_build_why', { name: t(`module.${module}`) });
  return (
    <Space size={8}>
      <Typography.Text type="secondary" id="module-switch-why" data-testid="module-switch-why">
        {why}
      </Typography.Text>
      <Tooltip title={why}>{switchEl}</Tooltip>
    </Space>
  );
}
