import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Drawer, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n/useLanguage.ts';
import type { HelpText } from './locales/helpTexts.ts';

/**
 * The help of a section, from its page header (issue 27). Choice: a drawer over the page rather than
 * a page of its own, so the reader keeps the form they asked about in view; its words load only
 * when it opens (locales/helpTexts.ts), and Esc or a click outside closes it.
 */
export function HelpButton({ section }: { section: string }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState<HelpText | null>(null);

  const show = () => {
    setOpen(true);
    void import('./locales/helpTexts.ts').then((m) => setHelp(m.helpBooks[lang][section] ?? null));
  };

  return (
    <>
      <Button type="text" icon={<QuestionCircleOutlined />} onClick={show} data-testid="help-open">
        {t('help.open')}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('help.title', { section: t(`menu.${section}`) })} size={520} data-testid="help-drawer">
        {help === null ? (
          <Spin />
        ) : (
          <div data-testid={`help-${section}`}>
            <Typography.Paragraph>{help.intro}</Typography.Paragraph>
            {help.items.length > 0 && (
              <>
                <Typography.Title level={5}>{t('help.settings')}</Typography.Title>
                <dl style={{ margin: 0 }}>
                  {help.items.map(([term, meaning]) => (
                    <div key={term} style={{ marginBottom: 8 }}>
                      <dt><Typography.Text strong>{term}</Typography.Text></dt>
                      <dd style={{ marginInlineStart: 0 }}><Typography.Text>{meaning}</Typography.Text></dd>
                    </div>
                  ))}
                </dl>
              </>
            )}
            {help.recover.length > 0 && (
              <>
                <Typography.Title level={5}>{t('help.recover')}</Typography.Title>
                <ul style={{ paddingInlineStart: 20 }}>
                  {help.recover.map((line) => <li key={line}><Typography.Text>{line}</Typography.Text></li>)}
                </ul>
              </>
            )}
          </div>
        )}
      </Drawer>
    </>
  );
}
