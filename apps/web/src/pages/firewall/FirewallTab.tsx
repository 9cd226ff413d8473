import { Alert, App, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FirewallChange, FirewallWarning, Probation } from '@rampart/contracts';
import { fetchFirewallStatus, firewallKey, statusKey } from './api.ts';
import { ProbationModal } from './ProbationModal.tsx';

/** What a page does with the answer of a change: probation dialog, warnings, refresh. */
export type ReportChange = (change: Partial<FirewallChange> | null | undefined) => void;

const ReportContext = createContext<ReportChange>(() => undefined);

/** The tab's handler for change answers (FirewallChange). */
export function useReportChange(): ReportChange {
  return useContext(ReportContext);
}

/** Probations that are over (kept, gone or rolled back): never asked about again, whichever tab opens next. */
const settled = new Set<string>();

/**
 * The frame of every firewall tab: the kernel banner when the firewall cannot work, the warnings of the
 * last change, and the probation dialog, for a change just made or one still pending (GET /firewall/status).
 */
export function FirewallTab({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: statusKey, queryFn: fetchFirewallStatus });
  const [reported, setReported] = useState<Probation | null>(null);
  const [warnings, setWarnings] = useState<readonly FirewallWarning[]>([]);
  // Bumped when a probation is settled, so the dialog goes away even though `settled` lives outside React.
  const [, setSettledCount] = useState(0);

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: firewallKey }), [queryClient]);

  const report = useCallback<ReportChange>(
    (change) => {
      if (change?.probation) setReported(change.probation);
      setWarnings(!change?.probation && change?.warnings?.length ? change.warnings : []);
      refresh();
    },
    [refresh],
  );

  const settle = useCallback(
    (token: string) => {
      settled.add(token);
      setReported(null);
      setSettledCount((n) => n + 1);
      refresh();
    },
    [refresh],
  );
  const onExpired = useCallback(
    (token: string) => {
      settle(token);
      modal.warning({ title: t('fw.probation.rolled_back_title'), content: <span data-testid="fw-probation-rolled-back">{t('fw.probation.rolled_back')}</span>, okText: t('common.i_know') });
    },
    [modal, settle, t],
  );

  const candidate = reported ?? status.data?.probation ?? null;
  const active = candidate && !settled.has(candidate.token) ? candidate : null;
  const kernel = status.data?.kernel;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={testId}>
      {(kernel === 'unavailable' || kernel === 'error') && (
        <Alert
          type="error"
          showIcon
          title={t(`fw.kernel.${kernel}`)}
          description={status.data?.message || t('fw.kernel.unavailable_hint')}
          data-testid="fw-kernel-banner"
        />
      )}
      {kernel === 'off' && <Alert type="info" showIcon title={t('fw.kernel.off')} data-testid="fw-kernel-off" />}
      {warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setWarnings([])}
          title={t('fw.warning.title')}
          description={
            <Space orientation="vertical" size={0}>
              {warnings.map((w) => (
                <span key={w} data-testid={`fw-warning-${w}`}>{t(`fw.warning.${w}`)}</span>
              ))}
            </Space>
          }
          data-testid="fw-warnings"
        />
      )}
      <ReportContext.Provider value={report}>{children}</ReportContext.Provider>
      {active && (
        <ProbationModal
          key={active.token}
          probation={active}
          onKept={settle}
          onExpired={onExpired}
          onDismissed={(seconds) => void message.info(t('fw.probation.dismissed', { seconds }))}
        />
      )}
    </Space>
  );
}
