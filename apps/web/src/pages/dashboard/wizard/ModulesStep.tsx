import { Alert, Button, Flex, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { basicModules, type ModuleSwitchResult } from '@rampart/contracts';
import { switchModule } from '../../../api/endpoints.ts';
import { globalInfoKey } from '../../../session/useGlobalInfo.ts';
import { useCan, userInfoKey } from '../../../session/useUserInfo.ts';
import { homeIndexKey } from '../useHomeIndex.ts';

/** Step two: the home page's own "open all basic modules" call; each engine starts with its recommended settings. */
export function ModulesStep({ result, onResult }: { result: ModuleSwitchResult | null; onResult: (r: ModuleSwitchResult) => void }) {
  const { t } = useTranslation();
  const canEnable = useCan('home', 'enable');
  const queryClient = useQueryClient();
  const list = (items: string[]) => items.join(t('dashboard.list_separator'));
  const open = useMutation({
    mutationFn: () => switchModule({ module: 'basic', status: 1 }),
    onSuccess: (r) => r && onResult(r),
    onSettled: () => {
      for (const queryKey of [homeIndexKey, userInfoKey, globalInfoKey]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  return (
    <Flex vertical gap={12} data-testid="wizard-modules">
      <Typography.Paragraph>{t('wizard.modules_intro', { modules: list(basicModules.map((m) => t(`module.${m}`))) })}</Typography.Paragraph>
      {canEnable ? (
        <Button type="primary" loading={open.isPending} disabled={result !== null} onClick={() => open.mutate()} style={{ alignSelf: 'flex-start' }} data-testid="wizard-modules-open">
          {t('wizard.modules_open')}
        </Button>
      ) : (
        <Alert type="info" showIcon title={t('wizard.no_permission')} />
      )}
      {result && (
        <Alert
          type={result.not_switched.length > 0 ? 'warning' : 'success'}
          showIcon
          data-testid="wizard-modules-result"
          title={result.switched.length > 0 ? t('wizard.modules_opened', { modules: list(result.switched.map((m) => t(`module.${m}`))) }) : t('wizard.modules_none')}
          description={result.not_switched.length > 0 ? t('wizard.modules_not_opened', { modules: list(result.not_switched.map((n) => t(`module.${n.module}`))) }) : undefined}
        />
      )}
    </Flex>
  );
}
