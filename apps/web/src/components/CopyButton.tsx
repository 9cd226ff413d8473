import { CopyOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '../utils/copy.ts';

/** Copies `text` and says how it went. */
export function CopyButton({ text, testid }: { text: string | null | undefined; testid: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onClick = async () => {
    const outcome = await copyText(text);
    if (outcome === 'ok') void message.success(t('common.copied'));
    else void message.error(t(outcome === 'unsupported' ? 'common.copy_unsupported' : 'common.copy_failed'));
  };
  return (
    <Button size="small" icon={<CopyOutlined />} onClick={() => void onClick()} data-testid={testid}>
      {t('common.copy')}
    </Button>
  );
}
