import { Alert, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { modulesInBuild, type WizardAddressState } from '@rampart/contracts';
import { useHomeIndex } from '../useHomeIndex.ts';

/** The last page: what is on and off now (the home index, read again), and where the administrator's address stands. */
export function FinishStep({ ip, address }: { ip: string; address: WizardAddressState }) {
  const { t } = useTranslation();
  const modules = useHomeIndex().data?.modules;
  return (
    <Flex vertical gap={12} data-testid="wizard-finish">
      <Typography.Paragraph>{t('wizard.finish_intro')}</Typography.Paragraph>
      <Flex wrap gap={8}>
        {modulesInBuild.map((m) => {
          const on = modules?.[m] === 1;
          return (
            <Tag key={m} color={on ? 'green' : 'default'} data-testid={`wizard-finish-${m}`} data-on={on ? '1' : '0'}>
              {t(`module.${m}`)}: {on ? t('wizard.finish_on') : t('wizard.finish_off')}
            </Tag>
          );
        })}
      </Flex>
      <Alert
        type={address === 'untrusted' || address === 'unknown' ? 'warning' : 'success'}
        showIcon
        data-testid="wizard-finish-trust"
        title={address === 'loopback' ? t('wizard.finish_trust_loopback') : address === 'trusted' ? t('wizard.finish_trust_done', { ip }) : t('wizard.finish_trust_not', { ip })}
      />
    </Flex>
  );
}
