import { Alert, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../session/useUserInfo.ts';
import { useGatewayReport } from './gatewayReport.ts';

/**
 * The frame of every website tab: a note while the module is OFF (settings are kept but nothing is
 * inspected), and what the gateway said about the last change when it did not take it.
 */
export function WebsiteFrame({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const info = useUserInfo().data;
  const report = useGatewayReport();
  const off = info !== undefined && info.module_list.website !== 1;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={testId}>
      {off && <Alert type="info" showIcon title={t('web.module_off')} data-testid="web-module-off" />}
      {report && (
        <Alert
          type={report.state === 'not_running' ? 'info' : 'warning'}
          showIcon
          title={t(`web.gateway.${report.state}`, { reason: report.reason ?? '' })}
          data-testid="web-gateway-report"
        />
      )}
      {children}
    </Space>
  );
}
