import { Col, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HomeIndex, KernelStatus } from '@rampart/contracts';
import { formatDate } from '../../utils/format.ts';
import { Figure } from './Figure.tsx';

function ProtectionText({ protection }: { protection: HomeIndex['protection'] }) {
  const { t } = useTranslation();
  if (protection.mode === 'on') return <Tag color="success">{t('dashboard.protection_on')}</Tag>;
  if (protection.mode === 'temp_off') {
    return <Tag color="warning">{t('dashboard.protection_temp_off', { minutes: protection.minutes_left ?? 0 })}</Tag>;
  }
  return <Tag color="error">{t('dashboard.protection_off')}</Tag>;
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
    </Space>
  );
}

/** Protection, kernel, version, expiry and cloud library: what the console knows about itself and the agent. */
export function StatusFigures({ home, connected }: { home: HomeIndex; connected: boolean }) {
  const { t } = useTranslation();
  const notConnected = <Tag>{t('dashboard.not_connected')}</Tag>;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.system_status')} testid="dash-protection">
          {connected ? <ProtectionText protection={home.protection} /> : notConnected}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.kernel_status')} testid="dash-kernel">
          {connected && home.host ? <KernelText kernel={home.host.kernelStatus} /> : notConnected}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.version')} testid="dash-version">
          {home.version}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.expiry')} testid="dash-expiry">
          {home.expires_at === null ? t('dashboard.no_expiry') : formatDate(home.expires_at)}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.virlib')} testid="dash-virlib">
          {home.virlib_version ?? t('dashboard.virlib_missing')}
        </Figure>
      </Col>
    </Row>
  );
}
