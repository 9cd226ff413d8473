import { Alert, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GuardStatus, TamperOp } from '@rampart/contracts';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { useHomeIndex } from '../dashboard/useHomeIndex.ts';
import { fetchGuardStatus, guardStatusKey } from './api.ts';

/** Operations as the page's language names them, with the spec's flag letter: "Modify (w)". */
export function useOpLabel(): (op: TamperOp) => string {
  const { t } = useTranslation();
  return (op) => `${t(`tamper.op.${op}`)} (${op})`;
}

const backendType = { lsm: 'success', fanotify: 'warning', none: 'error' } as const;

/** A cause is a locale key under `kernel_cause.` (the same words as the home page's kernel status). */
function useCauseText(): (cause: string) => string {
  const { t, i18n } = useTranslation();
  return (cause) => (i18n.exists(`kernel_cause.${cause}`) ? t(`kernel_cause.${cause}`) : cause);
}

function GuardDetail({ status }: { status: GuardStatus }) {
  const { t } = useTranslation();
  const causeText = useCauseText();
  const opLabel = useOpLabel();
  const list = (ops: readonly TamperOp[]) => ops.map(opLabel).join(t('tamper.list_separator'));
  return (
    <Space orientation="vertical" size={2}>
      <Typography.Text type="secondary">
        {t('tamper.guard.kernel', { kernel: status.kernel || '-' })}
        {status.backend !== 'none' && ` · ${t('tamper.guard.counts', { rules: status.rules, objects: status.objects })}`}
      </Typography.Text>
      {status.enforced_ops.length > 0 && <span data-testid="tamper-guard-enforced">{t('tamper.guard.enforced', { ops: list(status.enforced_ops) })}</span>}
      {status.backend !== 'none' && status.missing_ops.length > 0 && (
        <Typography.Text type="danger" data-testid="tamper-guard-missing">{t('tamper.guard.missing', { ops: list(status.missing_ops) })}</Typography.Text>
      )}
      {status.causes.map((cause) => (
        <Typography.Text key={cause} type="danger" data-testid={`tamper-guard-cause-${cause}`}>
          {t('tamper.guard.cause', { cause: causeText(cause) })}
        </Typography.Text>
      ))}
      {status.warnings.map((warning) => (
        <Typography.Text key={warning} type="warning" data-testid={`tamper-guard-warning-${warning}`}>
          {t(warning.startsWith('guard_warning.') ? warning : `guard_warning.${warning}`, { defaultValue: warning })}
        </Typography.Text>
      ))}
      <Typography.Text type="secondary">{t('tamper.guard.self')}</Typography.Text>
    </Space>
  );
}

/**
 * The top of both tamper tabs: which backend enforces the rules and what it cannot deny (with the
 * causes the home page's kernel status names too), and whether the module switch or a protection
 * pause keeps the rules from working right now.
 */
export function GuardBanner() {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: guardStatusKey, queryFn: fetchGuardStatus });
  const moduleOn = useUserInfo().data?.module_list.tamper === 1;
  const protection = useHomeIndex().data?.protection;
  const guard = status.data;
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      {guard && (
        <Alert
          type={guard.running || guard.backend === 'none' ? backendType[guard.backend] : 'error'}
          showIcon
          title={<span data-testid="tamper-guard-title">{guard.backend !== 'none' && !guard.running ? t('tamper.guard.not_running') : t(`tamper.guard.backend_${guard.backend}`)}</span>}
          description={<GuardDetail status={guard} />}
          data-testid="tamper-guard-banner"
        />
      )}
      {!moduleOn && <Alert type="info" showIcon title={t('tamper.guard.module_off')} data-testid="tamper-module-off" />}
      {moduleOn && protection?.mode === 'temp_off' && (
        <Alert type="warning" showIcon title={t('tamper.guard.paused', { minutes: protection.minutes_left ?? 0 })} data-testid="tamper-paused" />
      )}
      {moduleOn && protection?.mode === 'off' && <Alert type="warning" showIcon title={t('tamper.guard.stopped')} data-testid="tamper-stopped" />}
    </Space>
  );
}
