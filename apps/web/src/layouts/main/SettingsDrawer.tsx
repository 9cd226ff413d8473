import { CheckOutlined } from '@ant-design/icons';
import { Divider, Drawer, Flex, Radio, Switch, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { primaryColors, type LayoutSettings } from '../../settings/layoutSettings.ts';
import { useLayoutSettings } from '../../settings/LayoutSettingsContext.tsx';

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
      <Typography.Text>{label}</Typography.Text>
      {children}
    </Flex>
  );
}

/** Theme and layout choices, stored in this browser. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update } = useLayoutSettings();
  const toggle = (key: keyof Pick<LayoutSettings, 'fixedHeader' | 'fixSiderbar' | 'autoHideHeader' | 'colorWeak'>, testid: string) => (
    <Switch size="small" checked={settings[key]} onChange={(v) => update({ [key]: v })} data-testid={testid} />
  );
  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={320} data-testid="settings-drawer">
      <Typography.Title level={5}>{t('settings.nav_theme')}</Typography.Title>
      <Radio.Group
        value={settings.navTheme}
        onChange={(e) => update({ navTheme: e.target.value as LayoutSettings['navTheme'] })}
        options={[
          { value: 'light', label: t('settings.theme_light') },
          { value: 'dark', label: t('settings.theme_dark') },
          { value: 'realDark', label: t('settings.theme_real_dark') },
        ]}
        data-testid="settings-theme"
      />
      <Divider />
      <Typography.Title level={5}>{t('settings.primary_color')}</Typography.Title>
      <Flex gap={8} wrap>
        {primaryColors.map((c) => (
          <Tooltip key={c.key} title={t(`settings.colors.${c.key}`)}>
            <button
              type="button"
              aria-label={t(`settings.colors.${c.key}`)}
              data-testid={`settings-color-${c.key}`}
              onClick={() => update({ colorPrimary: c.value })}
              style={{ width: 24, height: 24, border: 0, borderRadius: 4, background: c.value, color: '#fff', cursor: 'pointer' }}
            >
              {settings.colorPrimary === c.value ? <CheckOutlined /> : null}
            </button>
          </Tooltip>
        ))}
      </Flex>
      <Divider />
      <Typography.Title level={5}>{t('settings.layout')}</Typography.Title>
      <Radio.Group
        value={settings.layout}
        onChange={(e) => update({ layout: e.target.value as LayoutSettings['layout'] })}
        options={[
          { value: 'side', label: t('settings.layout_side') },
          { value: 'top', label: t('settings.layout_top') },
        ]}
        data-testid="settings-layout"
      />
      <Divider />
      <Row label={t('settings.content_width')}>
        <Tooltip title={settings.layout === 'side' ? t('settings.width_side_hint') : undefined}>
          <Radio.Group
            size="small"
            optionType="button"
            disabled={settings.layout === 'side'}
            value={settings.contentWidth}
            onChange={(e) => update({ contentWidth: e.target.value as LayoutSettings['contentWidth'] })}
            options={[
              { value: 'Fluid', label: t('settings.width_fluid') },
              { value: 'Fixed', label: t('settings.width_fixed') },
            ]}
          />
        </Tooltip>
      </Row>
      <Row label={t('settings.fixed_header')}>{toggle('fixedHeader', 'settings-fixed-header')}</Row>
      <Row label={t('settings.fixed_sider')}>{toggle('fixSiderbar', 'settings-fixed-sider')}</Row>
      <Row label={t('settings.auto_hide_header')}>{toggle('autoHideHeader', 'settings-auto-hide')}</Row>
      <Divider />
      <Row label={t('settings.colour_weak')}>{toggle('colorWeak', 'settings-colour-weak')}</Row>
    </Drawer>
  );
}
