import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Col, Row, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NetRates } from '@rampart/contracts';
import { formatSpeed } from '../../utils/format.ts';
import { Figure } from './Figure.tsx';

/** Inbound and outbound speed; a dash until the first sample arrives. */
export function RateFigures({ rates }: { rates: NetRates | null }) {
  const { t } = useTranslation();
  const show = (v: number | undefined) => (v === undefined ? '-' : formatSpeed(v));
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12}>
        <Figure label={<Space><ArrowDownOutlined />{t('dashboard.rx')}</Space>} testid="dash-rx">
          {show(rates?.rx)}
        </Figure>
      </Col>
      <Col xs={24} sm={12}>
        <Figure label={<Space><ArrowUpOutlined />{t('dashboard.tx')}</Space>} testid="dash-tx">
          {show(rates?.tx)}
        </Figure>
      </Col>
    </Row>
  );
}
