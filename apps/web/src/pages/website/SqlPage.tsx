import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { keywordLibraries } from '@rampart/contracts';
import { Group, LinesField, SwitchField } from './controls.tsx';
import { SettingsTabPage } from './SettingsTab.tsx';
import { fetchKeywords } from './websiteApi.ts';

/** Injection: SQL injection detection and the keyword libraries (block, filter, record). */
export function SqlPage() {
  const { t } = useTranslation();
  const reload = useMutation({ mutationFn: fetchKeywords });
  return (
    <SettingsTabPage<'sql'>
      tab="sql"
      render={(kit) => (
        <>
          <Group kit={kit} name="sqli" title={t('web.sql.sqli')} hint={t('web.sql.sqli_hint')}>
            <SwitchField kit={kit} path="sqli" label={t('web.sql.sqli_switch')} />
          </Group>
          <Alert
            type="info"
            showIcon
            title={t('web.sql.keywords_help_title')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="web-sql-keywords-help">
                <li>{t('web.sql.help_plus')}</li>
                <li>{t('web.sql.help_minus')}</li>
                <li>{t('web.sql.help_equal')}</li>
                <li>{t('web.sql.help_case')}</li>
              </ul>
            }
          />
          {keywordLibraries.map((library) => (
            <Group key={library} kit={kit} name={`keywords-${library}`} title={t(`web.sql.library.${library}`)} hint={t(`web.sql.library_hint.${library}`)} enabled={`keywords.${library}.enabled`}>
              <LinesField kit={kit} path={`keywords.${library}.rules`} label={t('web.sql.rules')} rows={6} placeholder={t(`web.ph.keywords_${library}`)} />
            </Group>
          ))}
          {!kit.readOnly && (
            <Form.Item>
              <Button
                icon={<ReloadOutlined />}
                loading={reload.isPending}
                onClick={() =>
                  reload.mutate(undefined, {
                    // The boxes follow the draft: they show the reloaded rules.
                    onSuccess: (keywords) => kit.set('keywords', keywords),
                  })
                }
                data-testid="web-sql-reload-keywords"
              >
                {t('web.sql.reload')}
              </Button>
            </Form.Item>
          )}
        </>
      )}
    />
  );
}
