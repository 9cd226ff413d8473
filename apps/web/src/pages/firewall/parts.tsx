import { ExportOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FirewallListKind } from '@rampart/contracts';
import { saveBlob } from '../../utils/download.ts';
import { exportFirewallList } from './api.ts';

/** A keyword box with a search button: Enter or the button searches; clearing the box searches for everything. */
export function KeywordSearch({ prefix, placeholder, onSearch }: { prefix: string; placeholder: string; onSearch: (keyword: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <Space.Compact>
      <Input
        allowClear
        maxLength={100}
        style={{ width: 260 }}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '') onSearch('');
        }}
        onPressEnter={() => onSearch(text.trim())}
        data-testid={`${prefix}-keyword`}
      />
      <Button icon={<SearchOutlined />} onClick={() => onSearch(text.trim())} data-testid={`${prefix}-search`}>
        {t('fw.search')}
      </Button>
    </Space.Compact>
  );
}

/** Downloads a list as a text file (GET /firewall/export), fetched with the token. */
export function ExportButton({ list, testId }: { list: FirewallListKind | 'intercept'; testId: string }) {
  const { t } = useTranslation();
  const run = useMutation({
    mutationFn: async () => {
      const { blob, filename } = await exportFirewallList(list);
      saveBlob(blob, filename ?? `firewall-${list}.txt`);
    },
  });
  return (
    <Button icon={<ExportOutlined />} loading={run.isPending} onClick={() => run.mutate()} data-testid={testId}>
      {t('fw.export')}
    </Button>
  );
}
