import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logPeriods, type EventLevel, type EventModule, type LogPeriod } from '@rampart/contracts';
import type { LogFilters } from '../../api/endpoints.ts';
import { errorProps, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { levelName, moduleName } from './names.ts';

export interface LogFilterBarProps {
  /** Test ids read `<prefix>-filter-period`, `<prefix>-search`, … */
  prefix: string;
  value: LogFilters;
  onSearch: (filters: LogFilters) => void;
  /** Checks the filters with the server's query schema; messages by field. */
  validate: (filters: LogFilters) => FieldErrors;
  modules?: readonly string[];
  levels?: readonly string[];
  periods?: readonly LogPeriod[];
}

/** Drop-downs apply at once; IP and keyword apply on Enter or the search button. */
export function LogFilterBar({ prefix, value, onSearch, validate, modules, levels, periods = logPeriods }: LogFilterBarProps) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [draft, setDraft] = useState<LogFilters>(value);
  const [errors, setErrors] = useState<FieldErrors>({});

  const apply = (next: LogFilters) => {
    const clean: LogFilters = { ...next, ip: next.ip?.trim() || undefined, keyword: next.keyword?.trim() || undefined };
    const found = validate(clean);
    setErrors(found);
    if (Object.keys(found).length === 0) onSearch(clean);
  };
  const pick = (patch: Partial<LogFilters>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    apply(next);
  };
  const options = (values: readonly string[], name: (v: string) => string, field: string) =>
    values.map((v) => ({ value: v, label: name(v), 'data-testid': `${prefix}-filter-${field}-${v}` }));

  return (
    <Form layout="inline" style={{ rowGap: 12, marginBottom: 16 }} onFinish={() => apply(draft)}>
      <Form.Item label={t('log.period_label')}>
        <Select
          style={{ width: 140 }}
          value={draft.period}
          onChange={(period: LogPeriod) => pick({ period })}
          options={options(periods, (p) => t(`log.period.${p}`), 'period')}
          data-testid={`${prefix}-filter-period`}
        />
      </Form.Item>
      {modules && (
        <Form.Item label={t('log.col.module')}>
          <Select
            style={{ width: 170 }}
            allowClear
            placeholder={t('log.all')}
            value={draft.module}
            onChange={(module?: EventModule) => pick({ module })}
            options={options(modules, (m) => moduleName(m, lang), 'module')}
            data-testid={`${prefix}-filter-module`}
          />
        </Form.Item>
      )}
      {levels && (
        <Form.Item label={t('log.col.level')}>
          <Select
            style={{ width: 120 }}
            allowClear
            placeholder={t('log.all')}
            value={draft.level}
            onChange={(level?: EventLevel) => pick({ level })}
            options={options(levels, (l) => levelName(l, lang), 'level')}
            data-testid={`${prefix}-filter-level`}
          />
        </Form.Item>
      )}
      <Form.Item label={t('log.col.ip')} {...errorProps(errors, 'ip', prefix)}>
        <Input
          style={{ width: 170 }}
          allowClear
          value={draft.ip ?? ''}
          placeholder={t('log.ip_placeholder')}
          onChange={(e) => setDraft({ ...draft, ip: e.target.value })}
          data-testid={`${prefix}-filter-ip`}
        />
      </Form.Item>
      <Form.Item label={t('log.keyword')} {...errorProps(errors, 'keyword', prefix)}>
        <Input
          style={{ width: 200 }}
          allowClear
          value={draft.keyword ?? ''}
          placeholder={t('log.keyword_placeholder')}
          onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
          data-testid={`${prefix}-filter-keyword`}
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={`${prefix}-search`}>
          {t('log.search')}
        </Button>
      </Form.Item>
    </Form>
  );
}
