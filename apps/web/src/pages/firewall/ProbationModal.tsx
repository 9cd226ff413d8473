import { Button, Modal, Space, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { probationSeconds, type Probation } from '@rampart/contracts';
import { isApiError } from '../../api/errors.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { confirmChange } from './api.ts';
import { useNow } from './forms.ts';

/** Probations whose dialog the user closed with "roll back now": not shown again when another tab opens. */
const dismissed = new Set<string>();

/**
 * A change that cuts the user's own address is live on probation: keep it before the deadline or the
 * server rolls it back. "Roll back now" only closes the dialog (the server rolls back at the deadline);
 * the countdown goes on hidden so the user is told when the rollback has happened.
 */
export function ProbationModal({ probation, onKept, onExpired, onDismissed }: {
  probation: Probation;
  /** Confirmed, or the server no longer knows the probation: stop asking and refresh. */
  onKept: (token: string) => void;
  /** The deadline passed without a confirmation: the change has been rolled back. */
  onExpired: (token: string) => void;
  onDismissed: (secondsLeft: number) => void;
}) {
  const { t } = useTranslation();
  // Keeping a change is an edit (POST /firewall/confirm); a role without it can only let the change roll back.
  const canKeep = useCan('firewall', 'edit');
  // The server's deadline, never more than a probation lasts (a browser clock ahead of the server's would stretch it).
  const [deadline] = useState(() => Date.now() + Math.min(Math.max(0, probation.expires_at - Date.now()), probationSeconds * 1000));
  const [open, setOpen] = useState(() => !dismissed.has(probation.token));
  const now = useNow(250);
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  const expired = seconds === 0;

  const keep = useMutation({
    mutationFn: () => confirmChange(probation.token),
    onSuccess: () => onKept(probation.token),
    // The server's refusal (the probation is gone) ends it too; a network failure leaves the dialog for another try.
    onError: (e) => {
      if (isApiError(e) && e.kind === 'envelope') onKept(probation.token);
    },
  });

  const fired = useRef(false);
  useEffect(() => {
    if (!expired || fired.current || keep.isPending) return;
    fired.current = true;
    onExpired(probation.token);
  }, [expired, keep.isPending, onExpired, probation.token]);

  const rollBack = () => {
    dismissed.add(probation.token);
    setOpen(false);
    onDismissed(seconds);
  };

  // Unmounted rather than hidden once answered: the countdown above goes on without it.
  if (!open || expired) return null;
  return (
    <Modal
      open
      title={t('fw.probation.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={[
        <Button key="rollback" danger onClick={rollBack} disabled={keep.isPending} data-testid="fw-probation-rollback">
          {t('fw.probation.rollback')}
        </Button>,
        canKeep && (
          <Button key="keep" type="primary" loading={keep.isPending} onClick={() => keep.mutate()} data-testid="fw-probation-keep">
            {t('fw.probation.keep')}
          </Button>
        ),
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="fw-probation">
        <Typography.Text>{t('fw.probation.intro')}</Typography.Text>
        {probation.warnings.map((w) => (
          <Typography.Text key={w} type="warning" data-testid={`fw-probation-warning-${w}`}>
            {t(`fw.warning.${w}`)}
          </Typography.Text>
        ))}
        <Typography.Text strong style={{ fontSize: 16 }} data-testid="fw-probation-countdown">
          {t('fw.probation.countdown', { seconds })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('fw.probation.rollback_hint')}</Typography.Text>
        {!canKeep && <Typography.Text type="danger" data-testid="fw-probation-no-keep">{t('fw.probation.no_keep')}</Typography.Text>}
      </Space>
    </Modal>
  );
}
