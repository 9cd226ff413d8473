import { Checkbox, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { alertAreas, alertMethods, cookieSameSites, frameOptionModes, websiteModes, type WebsiteBase } from '@rampart/contracts';
import { errorProps } from '../../components/forms/fieldErrors.tsx';
import { Group, LinesField, NumberField, SelectField, SwitchField } from './controls.tsx';
import { SettingsTabPage } from './SettingsTab.tsx';

/** Base: block mode, snapshots, alerts, cookie attributes and X-Frame-Options. */
export function BasePage() {
  const { t } = useTranslation();
  return (
    <SettingsTabPage<'base'>
      tab="base"
      render={(kit) => {
        const draft = kit.draft as WebsiteBase;
        return (
          <>
            <Group kit={kit} name="block_mode" title={t('web.base.block_mode')} hint={t('web.base.block_mode_hint')}>
              <SelectField kit={kit} path="block_mode" label={t('web.base.block_mode')} values={websiteModes} labelOf={(v) => t(`web.mode.${v}`)} />
            </Group>
            <Group kit={kit} name="snapshot" title={t('web.base.snapshot')} hint={t('web.base.snapshot_hint')} enabled="snapshot.enabled">
              <NumberField kit={kit} path="snapshot.retention_days" label={t('web.base.retention_days')} unit={t('web.unit.days')} />
            </Group>
            <Group kit={kit} name="alert" title={t('web.base.alert')} hint={t('web.base.alert_hint')} enabled="alert.enabled">
              <Flex gap={24} wrap>
                <SelectField kit={kit} path="alert.area" label={t('web.base.alert_area')} values={alertAreas} labelOf={(v) => t(`web.alert_area.${v}`)} />
                <Form.Item label={t('web.base.alert_methods')} {...errorProps(kit.errors, 'alert.methods', 'web-base')}>
                  <Checkbox.Group
                    value={draft.alert.methods}
                    disabled={kit.readOnly}
                    onChange={(values) => kit.set('alert.methods', alertMethods.filter((m) => values.includes(m)))}
                    options={alertMethods.map((m) => ({ value: m, label: <span data-testid={`web-base-alert-method-${m}`}>{t(`web.alert_method.${m}`)}</span> }))}
                  />
                </Form.Item>
              </Flex>
            </Group>
            <Group kit={kit} name="cookie" title={t('web.base.cookie')} hint={t('web.base.cookie_hint')}>
              <Flex gap={24} wrap>
                <SwitchField kit={kit} path="cookie.http_only" label={t('web.base.http_only')} />
                <SelectField kit={kit} path="cookie.same_site" label={t('web.base.same_site')} values={cookieSameSites} labelOf={(v) => t(`web.same_site.${v}`)} />
              </Flex>
            </Group>
            <Group kit={kit} name="frame_options" title={t('web.base.frame_options')} hint={t('web.base.frame_options_hint')}>
              <SelectField kit={kit} path="frame_options.mode" label={t('web.base.frame_mode')} values={frameOptionModes} labelOf={(v) => t(`web.frame_mode.${v}`)} />
              {draft.frame_options.mode === 'allow_from' && (
                <LinesField kit={kit} path="frame_options.domains" label={t('web.base.frame_domains')} hint={t('web.hint.domains')} placeholder={t('web.ph.domains')} />
              )}
            </Group>
          </>
        );
      }}
    />
  );
}
