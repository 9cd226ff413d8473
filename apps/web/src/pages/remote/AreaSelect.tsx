import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchAreas } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { ruleAreaName, useCommonAreas } from '../firewall/commonAreas.ts';

/** How many areas the picker offers for one search. */
const areaChoices = 50;

/** Countries, provinces and common areas, as the firewall's rule form picks them. */
export function AreaSelect({ value, onChange, disabled }: { value: string[]; onChange: (codes: string[]) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [search, setSearch] = useState('');
  const common = useCommonAreas();
  const needle = search.trim().toLowerCase();
  const matches = [
    ...common.filter((area) => needle === '' || area.name.toLowerCase().includes(needle)).map((area) => ({ code: area.code, name: t('sys_areas.picker_label', { name: area.name }) })),
    ...searchAreas(search, lang, areaChoices),
  ];
  const options = [
    ...value.filter((code) => !matches.some((m) => m.code === code)).map((code) => ({ value: code, label: ruleAreaName(code, lang, common) })),
    ...matches.map((m) => ({ value: m.code, label: m.name, 'data-testid': `remote-area-${m.code.replace(':', '-')}` })),
  ];
  return (
    <Select
      mode="multiple"
      disabled={disabled}
      value={value}
      placeholder={t('remote.areas_placeholder')}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      onChange={(codes: string[]) => {
        onChange(codes);
        setSearch('');
      }}
      options={options}
      data-testid="remote-areas"
    />
  );
}
