import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { testId } from '../../utils/testId.ts';
import { trustTerminalLinks } from '../system/TrustTerminalsCard.tsx';

/**
 * The home page's "download the trust terminal" (spec, home): nothing to install — the terminal is
 * a page this console serves, plus a command for jump hosts and scripts. The dialog gives both.
 */
export function TrustTerminalButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const open = () => {
    const links = trustTerminalLinks();
    modal.info({
      title: t('dashboard.trust_terminal'),
      width: 600,
      okText: t('common.ok'),
      content: (
        <div data-testid="trust-terminal-dialog">
          <Typography.Paragraph>{t('dashboard.trust_terminal_intro')}</Typography.Paragraph>
          <Typography.Paragraph>
            <Typography.Link href={links.page} target="_blank" copyable={{ text: links.page }} data-testid="trust-terminal-link">{links.page}</Typography.Link>
          </Typography.Paragraph>
          <Typography.Paragraph>{t('dashboard.trust_terminal_cli')}</Typography.Paragraph>
          <Typography.Paragraph code copyable data-testid="trust-terminal-command">{links.command}</Typography.Paragraph>
        </div>
      ),
    });
  };
  return (
    <Button icon={<SafetyCertificateOutlined />} onClick={open} {...testId('trust-terminal-download')}>
      {t('dashboard.trust_terminal')}
    </Button>
  );
}
