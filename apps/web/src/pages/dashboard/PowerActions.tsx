import { PoweroffOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { restart } from '../../api/endpoints.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { openAddress, reloadPage } from '../../utils/reload.ts';
import { testId } from '../../utils/testId.ts';
import { waitForConsole } from './waitForConsole.ts';

/**
 * Reboot the server (t=2) or restart the software (t=1), each after a confirmation. Then poll until
 * the console answers and reload; if it never does, go to the address anyway (spec, section 4).
 */
export function PowerActions() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const allowed = useCan('home', 'edit');
  const [restarting, setRestarting] = useState(false);

  const run = async (kind: 1 | 2) => {
    await restart(kind);
    setRestarting(true);
    const target = window.location.href;
    if (await waitForConsole()) reloadPage();
    else openAddress(target);
  };

  const ask = (kind: 1 | 2) =>
    modal.confirm({
      title: t(kind === 2 ? 'dashboard.reboot_server' : 'dashboard.restart_software'),
      content: t(kind === 2 ? 'dashboard.reboot_confirm' : 'dashboard.restart_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('power-confirm'),
      onOk: () => void run(kind).catch(() => undefined),
    });

  if (!allowed) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {restarting && <Alert type="info" showIcon title={t('dashboard.restarting')} data-testid="restarting" />}
      <Space wrap>
        <Button danger icon={<PoweroffOutlined />} disabled={restarting} onClick={() => ask(2)} data-testid="reboot-server">
          {t('dashboard.reboot_server')}
        </Button>
        <Button icon={<ReloadOutlined />} disabled={restarting} onClick={() => ask(1)} data-testid="restart-software">
          {t('dashboard.restart_software')}
        </Button>
      </Space>
    </Space>
  );
}
