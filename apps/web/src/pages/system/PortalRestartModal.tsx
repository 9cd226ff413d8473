import { Modal, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { restartPollTries, type PortalRestart } from '@rampart/contracts';
import { getToken } from '../../storage/token.ts';
import { openAddress } from '../../utils/reload.ts';
import { waitForPanel } from './portalRestart.ts';

type Phase = 'waiting' | 'found' | 'failed';

/** How long the "press F5" message stays before the browser goes to the new address anyway. */
export const pressF5ReadMs = 2000;

/**
 * After a save that restarts the panel: polls the new address (20 × 1 s), then goes there. When
 * it never answers, the user reads that F5 reloads the page, and the browser goes there anyway.
 */
export function PortalRestartModal({ restart }: { restart: PortalRestart }) {
  const { t } = useTranslation();
  const [tries, setTries] = useState(0);
  const [phase, setPhase] = useState<Phase>('waiting');
  useEffect(() => {
    let cancelled = false;
    let leave: ReturnType<typeof setTimeout> | undefined;
    void waitForPanel(restart.probe, getToken(), (n) => !cancelled && setTries(n), undefined, () => cancelled).then((up) => {
      if (cancelled) return;
      setPhase(up ? 'found' : 'failed');
      leave = setTimeout(() => openAddress(restart.target), up ? 0 : pressF5ReadMs);
    });
    return () => {
      cancelled = true;
      clearTimeout(leave);
    };
  }, [restart]);

  const address = restart.target;
  const text =
    phase === 'waiting' ? t('sys_portal.restart_waiting', { address, tries, max: restartPollTries })
      : phase === 'found' ? t('sys_portal.restart_found', { address })
        : t('sys_portal.restart_press_f5', { address });
  return (
    <Modal open title={t('sys_portal.restart_title')} closable={false} mask={{ closable: false }} keyboard={false} footer={null}>
      <div data-testid="portal-restart">
        <Progress
          percent={phase === 'waiting' ? Math.round((tries / restartPollTries) * 100) : 100}
          status={phase === 'failed' ? 'exception' : phase === 'found' ? 'success' : 'active'}
          showInfo={false}
        />
        <Typography.Paragraph data-testid={`portal-restart-${phase}`}>{text}</Typography.Paragraph>
      </div>
    </Modal>
  );
}
