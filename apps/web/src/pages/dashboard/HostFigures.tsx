import { Col, Progress, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HostInfo } from '@rampart/contracts';
import { formatSize, percentOf } from '../../utils/format.ts';
import { Figure } from './Figure.tsx';

/** Memory, cores, load and disk use, straight from the agent's host info. */
export function HostFigures({ host }: { host: HostInfo }) {
  const { t } = useTranslation();
  const { memory, load } = host;
  const loadText = (n: number) => n.toFixed(2);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.memory')} testid="dash-memory">
          <Space orientation="vertical" style={{ width: '100%' }}>
            {t('dashboard.memory_value', { used: formatSize(memory.used), total: formatSize(memory.total) })}
            <Progress percent={percentOf(memory.used, memory.total)} size="small" />
          </Space>
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.cores')} testid="dash-cores">
          {t('dashboard.cores_value', { count: host.cores })}
        </Figure>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <Figure label={t('dashboard.load')} testid="dash-load">
          {t('dashboard.load_value', {
            one: loadText(load.one),
            five: loadText(load.five),
            fifteen: loadText(load.fifteen),
            level: t(`load.${load.level}`),
          })}
        </Figure>
      </Col>
      <Col span={24}>
        <Figure label={t('dashboard.disks')} testid="dash-disks">
          {host.disks.length === 0 && <Typography.Text type="secondary">{t('dashboard.no_disks')}</Typography.Text>}
          {host.disks.map((disk) => (
            <div key={disk.mount} data-testid={`dash-disk-${disk.mount}`} style={{ marginBottom: 8 }}>
              <Space>
                <Typography.Text code>{disk.mount}</Typography.Text>
                <Typography.Text>{t('dashboard.disk_value', { used: formatSize(disk.used), size: formatSize(disk.size) })}</Typography.Text>
              </Space>
              <Progress percent={percentOf(disk.used, disk.size)} size="small" />
            </div>
          ))}
        </Figure>
      </Col>
    </Row>
  );
}
