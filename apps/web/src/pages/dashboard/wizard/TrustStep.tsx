import { Alert, Button, Flex, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HomeWizardView, WizardAddressState } from '@rampart/contracts';
import { useCan } from '../../../session/useUserInfo.ts';
import { trustMyAddress } from './wizardApi.ts';

/**
 * Step one, so nothing turned on later can lock the administrator out: their own address (as the
 * panel sees it) joins the super whitelist. The console takes the address from the request itself.
 */
export function TrustStep({ view, address, onAddress }: { view: HomeWizardView; address: WizardAddressState; onAddress: (a: WizardAddressState) => void }) {
  const { t } = useTranslation();
  const canAdd = useCan('system', 'add');
  const add = useMutation({ mutationFn: trustMyAddress, onSuccess: (result) => onAddress(result.address) });
  return (
    <Flex vertical gap={12} data-testid="wizard-trust">
      <Typography.Paragraph>{t('wizard.trust_intro')}</Typography.Paragraph>
      <Typography.Text strong data-testid="wizard-trust-ip">{t('wizard.trust_ip', { ip: view.client_ip })}</Typography.Text>
      <Typography.Text type="secondary">{t('wizard.trust_proxy')}</Typography.Text>
      {address === 'loopback' && <Alert type="success" showIcon title={t('wizard.trust_loopback')} data-testid="wizard-trust-state" />}
      {address === 'trusted' && <Alert type="success" showIcon title={t('wizard.trust_trusted')} data-testid="wizard-trust-state" />}
      {address === 'unknown' && <Alert type="warning" showIcon title={t('wizard.trust_unknown')} data-testid="wizard-trust-state" />}
      {address === 'untrusted' && (canAdd ? (
        <Button type="primary" loading={add.isPending} onClick={() => add.mutate()} style={{ alignSelf: 'flex-start' }} data-testid="wizard-trust-add">
          {t('wizard.trust_add')}
        </Button>
      ) : (
        <Alert type="info" showIcon title={t('wizard.no_permission')} data-testid="wizard-trust-no-permission" />
      ))}
    </Flex>
  );
}
