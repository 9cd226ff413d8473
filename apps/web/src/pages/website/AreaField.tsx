import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchAreas } from '@rampart/contracts';
import { errorProps } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { ruleAreaName, useCommonAreas } from '../firewall/commonAreas.ts';
import type { FormKit } from './SettingsTab.tsx';

/** How many areas the picker offers for one search. */
const areaChoices = 50;

/** Countries, provinces and common areas, searched as the firewall rule modal's picker does. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function AreaField({ kit, path, label }: { kit: FormKit<any>; path: string; label: string }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [search, setSearch] = useState('');
  const common = useCommonAreas();
  const chosen = (kit.get(path) as string[] | undefined) ?? [];
  const needle = search.trim().toLowerCase();
  const matches = [
    ...common.filter((area) => needle === '' || area.name.toLowerCase().includes(needle)).map((area) => ({ code: area.code, name: t('sys_areas.picker_label', { name: area.name }) })),
    ...searchAreas(search, lang, areaChoices),
  ];
  const options = [
    // Chosen areas outside the current matches still need their names.
    ...chosen.filter((code) => !matches.some((m) => m.code === code)).map((code) => ({ value: code, label: ruleAreaName(code, lang, common) })),
    ...matches.map((m) => ({ value: m.code, label: m.name, 'data-testid': `web-${kit.tab}-${path}-${m.code.replace(':', '-')}` })),
  ];
  return (
    <Form.Item label={label} {...errorProps(kit.errors, path, `web-${kit.tab}`)}>
      <Select
        mode="multiple"
        allowClear
        value={chosen}
        disabled={kit.readOnly}
        placeholder={t('web.ph.areas')}
        showSearch={{ filterOption: false, onSearch: setSearch }}
        onChange={(codes: string[]) => {
          kit.set(path, codes);
          setSearch('');
        }}
        options={options}
        data-testid={`web-${kit.tab}-${path}`}
      />
    </Form.Item>
  );
}
