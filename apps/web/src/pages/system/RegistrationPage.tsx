import { EyeInvisibleOutlined, EyeOutlined, ReloadOutlined, SwapOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegInfo } from '@rampart/contracts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDate, formatDateTime } from '../../utils/format.ts';
import { fetchRegInfo, refreshRegInfo, regInfoKey } from './registrationApi.ts';
import { ReRegisterModal } from './ReRegisterModal.tsx';

const dayMs = 86_400_000;
/** Fewer days than this left shows the expiry in warning colours. */
const soonDays = 30;

/**
 * Choice: the product key is masked (`ABC-***`) until the user asks to see it: it is what moves the
 * licence to another server, and this page is often on a shared screen. Device and product IDs are
 * not secrets and show in full (the device ID with a copy button, for support requests).
 */
export const maskKey = (key: string) => key.replace(/(?<=-).+$/, (rest) => '*'.repeat(rest.length));

function Expiry({ info }: { info: RegInfo }) {
  const { t } = useTranslation();
  const days = Math.ceil((info.expires_at - Date.now()) / dayMs);
  return (
    <Space>
      <span data-testid="reg-expires">{formatDate(info.expires_at)}</span>
      {info.expired || days <= 0 ? (
        <Tag color="red" data-testid="reg-expired">{t('sys_reg.expired')}</Tag>
      ) : (
        <Tag color={days < soonDays ? 'orange' : 'green'} data-testid="reg-days-left">{t('sys_reg.days_left', { count: days })}</Tag>
      )}
    </Space>
  );
}

function RegistrationDetails({ info }: { info: RegInfo }) {
  const { t } = useTranslation();
  const [showKey, setShowKey] = useState(false);
  return (
    <Descriptions column={1} bordered size="middle" styles={{ label: { width: 200 } }} data-testid="reg-details">
      <Descriptions.Item label={t('sys_reg.product_key')}>
        <Space>
          <Typography.Text code data-testid="reg-product-key">{showKey ? info.product_key : maskKey(info.product_key)}</Typography.Text>
          <Tooltip title={t(showKey ? 'sys_reg.hide_key' : 'sys_reg.show_key')}>
            <Button
              size="small"
              type="text"
              icon={showKey ? <EyeInvisibleOutlined /> : <EyeOutlined />}
              aria-label={t(showKey ? 'sys_reg.hide_key' : 'sys_reg.show_key')}
              onClick={() => setShowKey((v) => !v)}
              data-testid="reg-key-toggle"
            />
          </Tooltip>
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('sys_reg.expires_at')}>
        <Expiry info={info} />
      </Descriptions.Item>
      <Descriptions.Item label={t('sys_reg.device_id')}>
        <Space wrap>
          <Typography.Text code data-testid="reg-device-id">{info.device_id}</Typography.Text>
          <CopyButton text={info.device_id} testid="reg-copy-device" />
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('sys_reg.product_id')}>
        <span data-testid="reg-product-id">{info.product_id}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('sys_reg.transfers')}>
        <Space>
          <span data-testid="reg-transfers">{info.transfers_left}</span>
          <Typography.Text type="secondary">{t('sys_reg.transfers_hint')}</Typography.Text>
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('sys_reg.registered_at')}>
        <span data-testid="reg-registered-at">{formatDateTime(info.registered_at)}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** System settings, soft_reg tab: the licence of this console (GET /system/reg), its refresh and re-registration. */
export function RegistrationPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [renewing, setRenewing] = useState(false);
  const info = useQuery({ queryKey: regInfoKey, queryFn: fetchRegInfo });
  const reload = () => queryClient.invalidateQueries({ queryKey: regInfoKey });
  // The answer's message says how it went; a key that moved away ends in a 503, which leads to the register page.
  const refresh = useMutation({ mutationFn: refreshRegInfo, onSettled: reload });

  return (
    <Card
      title={t('sys_reg.title')}
      data-testid="system-reg-page"
      extra={
        canEdit && (
          <Space wrap>
            <Button icon={<ReloadOutlined />} loading={refresh.isPending} onClick={() => refresh.mutate()} data-testid="reg-refresh">
              {t('sys_reg.refresh')}
            </Button>
            <Button icon={<SwapOutlined />} onClick={() => setRenewing(true)} data-testid="reg-renew">
              {t('sys_reg.renew')}
            </Button>
          </Space>
        )
      }
    >
      {info.data ? (
        <RegistrationDetails info={info.data} />
      ) : info.isError ? (
        <Result status="warning" title={info.error.message} />
      ) : (
        <Spin />
      )}
      {renewing && (
        <ReRegisterModal
          onClose={() => setRenewing(false)}
          onRegistered={(result) => {
            setRenewing(false);
            void reload();
            // Only when no admin account existed does registration make one; its password shows this once.
            if (result.password !== null) {
              modal.info({
                title: t('sys_reg.new_admin_title'),
                content: (
                  <Descriptions column={1} size="small">
                    <Descriptions.Item label={t('register.admin_account')}>{result.username}</Descriptions.Item>
                    <Descriptions.Item label={t('register.admin_password')}>
                      <Typography.Text code copyable data-testid="reg-new-password">{result.password}</Typography.Text>
                    </Descriptions.Item>
                  </Descriptions>
                ),
                okText: t('common.i_know'),
              });
            }
          }}
        />
      )}
    </Card>
  );
}
