import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Markup } from '../../components/Markup.tsx';
import { useUserInfo } from '../../session/useUserInfo.ts';

/** The trial/demo button: only when /info carries demo info; asks with its text, then opens its url. */
export function DemoButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const demo = useUserInfo().data?.demo;
  if (!demo) return null;
  const onClick = () =>
    modal.confirm({
      title: demo.confirm,
      content: <Markup html={demo.msg} />,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => void window.open(demo.url, '_blank', 'noopener'),
    });
  return (
    <Button size="small" type="primary" ghost onClick={onClick} data-testid="demo-button">
      {t('header.demo')}
    </Button>
  );
}
