import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { reloadPage } from '../../utils/reload.ts';

/** Shown when even the error page's code cannot be loaded (the console was upgraded under this tab). */
export function ReloadNotice() {
  const { t } = useTranslation();
  return (
    <Flex vertical align="center" gap={16} style={{ padding: 48 }} data-testid="reload-notice">
      <p style={{ margin: 0 }}>{t('page.server_error_hint')}</p>
      <Button type="primary" onClick={reloadPage}>
        {t('common.retry')}
      </Button>
    </Flex>
  );
}
