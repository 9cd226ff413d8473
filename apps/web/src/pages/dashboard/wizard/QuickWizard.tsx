import { Button, Flex, Modal, Steps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HomeWizardView, ModuleSwitchResult, WizardAddressState } from '@rampart/contracts';
import { FinishStep } from './FinishStep.tsx';
import { ModulesStep } from './ModulesStep.tsx';
import { SitesStep } from './SitesStep.tsx';
import { TrustStep } from './TrustStep.tsx';
import { fetchWizard, setWizardState, wizardKey } from './wizardApi.ts';
import { homeIndexKey } from '../useHomeIndex.ts';

export function useWizardView() {
  return useQuery<HomeWizardView>({ queryKey: wizardKey, queryFn: fetchWizard, retry: false });
}

/**
 * The quick configuration wizard. The whitelist step comes first so that nothing turned on after it
 * (the firewall, remote protection) can shut the administrator out; every step can be skipped.
 * Closing it or "Skip the wizard" while it was still pending settles it as skipped, "Done" as done.
 */
export function QuickWizard({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const view = useWizardView().data;
  const [step, setStep] = useState(0);
  const [address, setAddress] = useState<WizardAddressState | null>(null);
  const [modules, setModules] = useState<ModuleSwitchResult | null>(null);
  if (!view) return null;
  const current = address ?? view.address;

  const settle = async (state: 'done' | 'skipped') => {
    if (state === 'done' || view.state === 'pending') await setWizardState(state).catch(() => undefined);
    void queryClient.invalidateQueries({ queryKey: wizardKey });
    onClose();
  };
  const next = () => {
    // The finish page reads the figures again: what the steps changed shows there.
    if (step === 2) void queryClient.invalidateQueries({ queryKey: homeIndexKey });
    setStep(step + 1);
  };
  const stepDone = step === 0 ? current !== 'untrusted' : step === 1 ? modules !== null : true;
  const titles = [t('wizard.step_trust'), t('wizard.step_modules'), t('wizard.step_sites'), t('wizard.step_finish')];

  return (
    <Modal
      open
      width={760}
      title={t('wizard.title')}
      maskClosable={false}
      onCancel={() => void settle('skipped')}
      destroyOnHidden
      data-testid="wizard"
      footer={(
        <Flex justify="space-between">
          {step < 3 ? <Button onClick={() => void settle('skipped')} data-testid="wizard-skip">{t('wizard.skip_all')}</Button> : <span />}
          <Flex gap={8}>
            {step > 0 && <Button onClick={() => setStep(step - 1)} data-testid="wizard-back">{t('wizard.back')}</Button>}
            {step < 3 ? (
              <Button type={stepDone ? 'primary' : 'default'} onClick={next} data-testid="wizard-next">{stepDone ? t('wizard.next') : t('wizard.skip_step')}</Button>
            ) : (
              <Button type="primary" onClick={() => void settle('done')} data-testid="wizard-done">{t('wizard.finish')}</Button>
            )}
          </Flex>
        </Flex>
      )}
    >
      <Flex vertical gap={16}>
        <Steps size="small" current={step} items={titles.map((title) => ({ title }))} />
        {step === 0 && <TrustStep view={view} address={current} onAddress={setAddress} />}
        {step === 1 && <ModulesStep result={modules} onResult={setModules} />}
        {step === 2 && <SitesStep />}
        {step === 3 && <FinishStep ip={view.client_ip} address={current} />}
      </Flex>
    </Modal>
  );
}
