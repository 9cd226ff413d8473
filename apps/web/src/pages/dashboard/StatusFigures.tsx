import { Col, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HomeIndex, KernelStatus, ModuleIssue, ModuleKey } from '@rampart/contracts';
import { formatDate } from '../../utils/format.ts';
import { Figure } from './Figure.tsx';
import { KernelUpdateButton } from './update/KernelUpdateButton.tsx';
import { ReleaseUpdateButton } from './update/ReleaseUpdate.tsx';
import { VirlibUpdateButton } from './update/VirlibUpdateButton.tsx';

/** The headline: the protection mode when it is not on, else the computed level. */
function StatusHeadline({ home }: { home: HomeIndex }) {
  const { t } = useTranslation();
  const { protection, system_status: status } = home;
  const tag = (color: string, text: string) => <Tag color={color} data-testid="dash-status-headline">{text}</Tag>;
  if (protection.mode === 'temp_off') return tag('warning', t('dashboard.protection_temp_off', { minutes: protection.minutes_left ?? 0 }));
  if (protection.mode === 'off') return tag('error', t('dashboard.protection_off'));
  return tag(levelColour[status.level], t(`dashboard.status_level.${status.level}`));
}

const levelColour = { protected: 'success', degraded: 'warning', unprotected: 'error' } as const;

/**
 * The system status (GET /home/index `system_status`): protected only while protection is on and
 * every module that is on is enforced; otherwise which modules are off, and which are on but not
 * enforcing, partly enforced or of unknown state, each with why.
 */
function SystemStatusText({ home }: { home: HomeIndex }) {
  const { t } = useTranslation();
  const status = home.system_status;
  const list = (items: string[]) => items.join(t('dashboard.list_separator'));
  const name = (module: ModuleKey) => t(`module.${module}`);
  const issues = (items: ModuleIssue[]) => list(items.map(({ module, reason }) => t('dashboard.status_item', { name: name(module), reason: t(`dashboard.status_reason.${reason}`) })));
  const noModule = status.why.includes('no_module_on');
  const line = (testid: string, type: 'secondary' | 'warning' | 'danger', text: string) => (
    <Typography.Text type={type} data-testid={testid}>
      {text}
    </Typography.Text>
  );
  return (
    <Space orientation="vertical" size={2}>
      <StatusHeadline home={home} />
      {noModule && line('dash-status-no-module', 'danger', t('dashboard.status_no_module'))}
      {status.failing.length > 0 && line('dash-status-failing', 'danger', t('dashboard.status_failing', { modules: issues(status.failing) }))}
      {status.partly.length > 0 && line('dash-status-partly', 'warning', t('dashboard.status_partly', { modules: issues(status.partly) }))}
      {status.unknown.length > 0 && line('dash-status-unknown', 'warning', t('dashboard.status_unknown', { modules: issues(status.unknown) }))}
      {status.off.length > 0 && line('dash-status-off', 'secondary', t('dashboard.status_off', { modules: list(status.off.map(name)) }))}
    </Space>
  );
}

function KernelText({ kernel }: { kernel: KernelStatus }) {
  const { t } = useTranslation();
  if (kernel.status === 'normal') return <Tag color="success">{t('dashboard.kernel_normal')}</Tag>;
  return (
    <Space orientation="vertical" size={2}>
      <Tag color="error">{t('dashboard.kernel_abnormal')}</Tag>
      <Typography.Text type="secondary">{t('dashboard.kernel_detail', { os: kernel.os, kernel: kernel.kernel })}</Typography.Text>
      {kernel.causes.map((cause) => (
        <Typography.Text key={cause} type="danger" data-testid={`dash-kernel-cause-${cause}`}>
          {t(`kernel_cause.${cause}`, { defaultValue: cause })}
        </Typography.Text>
      ))}
      <KernelUpdateButton />
    </Space>
  );
}

/** System status, kernel, version, expiry and cloud library: what the console knows about itself and the agent. */
export function StatusFigures({ home, connected }: { home: HomeIndex; connected: boolean }) {
  const { t } = useTranslation();
  const notConnected = <Tag>{t('dashboard.not_connected')}</Tag>;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.system_status')} testid="dash-protection">
          {connected ? <SystemStatusText home={home} /> : notConnected}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.kernel_status')} testid="dash-kernel">
          {connected && home.host ? <KernelText kernel={home.host.kernelStatus} /> : notConnected}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.version')} testid="dash-version" extra={<ReleaseUpdateButton />}>
          {home.version}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.expiry')} testid="dash-expiry">
          {home.expires_at === null ? t('dashboard.no_expiry') : formatDate(home.expires_at)}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.virlib')} testid="dash-virlib" extra={connected ? <VirlibUpdateButton /> : null}>
          {home.virlib_version ?? t('dashboard.virlib_missing')}
        </Figure>
      </Col>
    </Row>
  );
}
