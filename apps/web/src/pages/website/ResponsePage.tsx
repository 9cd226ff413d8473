import { Input, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { responseTypes, type WebsiteResponse } from '@rampart/contracts';
import { errorProps } from '../../components/forms/fieldErrors.tsx';
import { Group, NumberField, SelectField, TextField } from './controls.tsx';
import { SettingsTabPage } from './SettingsTab.tsx';

/** Response: what a blocked request gets (default: the 403 standard error page). */
export function ResponsePage() {
  const { t } = useTranslation();
  return (
    <SettingsTabPage<'response'>
      tab="response"
      render={(kit) => {
        const draft = kit.draft as WebsiteResponse;
        return (
          <Group kit={kit} name="response" title={t('web.response.title')} hint={t('web.response.hint')}>
            <SelectField kit={kit} path="type" label={t('web.response.type')} values={responseTypes} labelOf={(v) => t(`web.response_type.${v}`)} />
            {draft.type !== 'redirect' && <NumberField kit={kit} path="status" label={t('web.response.status')} extra={t('web.response.status_hint')} />}
            {draft.type === 'redirect' && <TextField kit={kit} path="redirect_url" label={t('web.response.redirect_url')} placeholder={t('web.ph.redirect')} />}
            {draft.type === 'custom' && (
              <Form.Item label={t('web.response.content')} {...errorProps(kit.errors, 'content', 'web-response')}>
                <Input.TextArea
                  rows={8}
                  value={draft.content}
                  disabled={kit.readOnly}
                  onChange={(e) => kit.set('content', e.target.value)}
                  data-testid="web-response-content"
                />
              </Form.Item>
            )}
          </Group>
        );
      }}
    />
  );
}
