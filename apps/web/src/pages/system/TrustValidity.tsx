import { InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trustDayChoices } from '@rampart/contracts';

/** The validity choices of the super whitelist: preset days, permanent (0), or a typed number of days. */
export function TrustValidity({ value, onChange, prefix }: {
  /** Days; 0: permanent; null: not chosen yet (the validity is required). */
  value: number | null;
  onChange: (days: number | null) => void;
  /** Test id prefix: `<prefix>-validity`, `<prefix>-validity-<choice>`, `<prefix>-days`. */
  prefix: string;
}) {
  const { t } = useTranslation();
  const preset = value !== null && (trustDayChoices as readonly number[]).includes(value);
  const [custom, setCustom] = useState(value !== null && !preset);
  const selected = custom ? 'custom' : value === null ? undefined : String(value);
  const options = [...trustDayChoices.map(String), 'custom'].map((choice) => ({
    value: choice,
    label: <span data-testid={`${prefix}-validity-${choice}`}>{t(`sys_trust.validity_days.${choice}`)}</span>,
  }));
  return (
    <Space wrap>
      <Select<string>
        style={{ width: 160 }}
        value={selected}
        placeholder={t('sys_trust.validity_placeholder')}
        options={options}
        onChange={(choice) => {
          const isCustom = choice === 'custom';
          setCustom(isCustom);
          onChange(isCustom ? null : Number(choice));
        }}
        data-testid={`${prefix}-validity`}
      />
      {custom && (
        <InputNumber<number>
          min={1}
          max={3650}
          precision={0}
          value={value}
          placeholder={t('sys_trust.custom_days')}
          suffix={t('sys_trust.days_suffix')}
          onChange={(days) => onChange(days ?? null)}
          data-testid={`${prefix}-days`}
        />
      )}
    </Space>
  );
}
