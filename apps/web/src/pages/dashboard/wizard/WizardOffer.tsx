import { Alert, Button, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../session/useUserInfo.ts';
import { useWizardView } from './QuickWizard.tsx';
import { setWizardState, wizardKey } from './wizardApi.ts';

/**
 * The offer on the dashboard until the wizard is done or skipped once (per panel). A banner rather
 * than a dialog: it never stands between a freshly signed-in administrator and the page.
 */
export function WizardOffer({ onStart }: { onStart: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useCan('home', 'edit');
  const view = useWizardView().data;
  if (!canEdit || view?.state !== 'pending') return null;
  const skip = () => void setWizardState('skipped').finally(() => void queryClient.invalidateQueries({ queryKey: wizardKey }));
  return (
    <Alert
      type="info"
      showIcon
      data-testid="wizard-offer"
      title={t('wizard.offer_title')}
      description={t('wizard.offer_text')}
      action={(
        <Space orientation="vertical">
          <Button type="primary" onClick={onStart} data-testid="wizard-offer-start">{t('wizard.offer_start')}</Button>
          <Button onClick={skip} data-testid="wizard-offer-skip">{t('wizard.offer_skip')}</Button>
        </Space>
      )}
    />
  );
}
