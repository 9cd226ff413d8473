import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { errorRetryMs } from './useDynamicData.ts';

/**
 * Why the figures could not be loaded (the console's own words, e.g. the agent is down), with a
 * retry. The page keeps retrying by itself, so a wall display left alone recovers when the cause goes.
 */
export function LoadError({ error, retrying, onRetry, style }: { error: Error; retrying: boolean; onRetry: () => void; style?: CSSProperties }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="dynamic-load-error"
      style={style}
      title={t('dynamic.load_failed')}
      description={
        <>
          <div data-testid="dynamic-load-error-reason">{error.message}</div>
          <div>{t('dynamic.retrying', { seconds: errorRetryMs / 1000 })}</div>
        </>
      }
      action={
        <Button icon={<ReloadOutlined />} loading={retrying} onClick={onRetry} data-testid="dynamic-retry">
          {t('common.retry')}
        </Button>
      }
    />
  );
}
