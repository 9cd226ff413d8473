import { Alert, Button, Card, Divider, Flex, Form, Input, InputNumber, Radio, Select, Space, Spin, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trojanAutoHandlings, type TrojanSettings } from '@rampart/contracts';
import { isApiError } from '../../api/errors.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { fetchLibrary, fetchTrojanSettings, saveLibrary, saveTrojanSettings, trojanKey, type LibraryView } from './api.ts';
import { checkSettings, draftOf, linesOf, type SettingsDraft } from './trojanForm.ts';

const fieldError = (errors: Record<string, string>, field: string) =>
  errors[field] ? { validateStatus: 'error' as const, help: <span data-testid={`trojan-settings-error-${field}`}>{errors[field]}</span> } : {};

function SettingsForm({ initial, canEdit }: { initial: TrojanSettings; canEdit: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({ mutationFn: saveTrojanSettings, onSettled: () => void queryClient.invalidateQueries({ queryKey: trojanKey }) });
  const set = (patch: Partial<SettingsDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const onSave = () => {
    const checked = checkSettings(draft, lang, (line, message) => t('trj.whitelist_line', { line, message }));
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.settings);
  };

  return (
    <Form layout="vertical" disabled={!canEdit} data-testid="trojan-settings-form">
      <Form.Item label={t('trj.realtime')} extra={t('trj.realtime_hint')}>
        <Switch checked={draft.realtime} onChange={(realtime) => set({ realtime })} data-testid="trojan-settings-realtime" />
      </Form.Item>
      <Form.Item label={t('trj.extensions')} extra={t('trj.extensions_hint')} {...fieldError(errors, 'extensions')}>
        <Select
          mode="tags"
          value={draft.extensions}
          onChange={(extensions: string[]) => set({ extensions })}
          tokenSeparators={[',', ' ']}
          open={false}
          suffixIcon={null}
          data-testid="trojan-settings-extensions"
        />
      </Form.Item>
      <Flex gap={16} wrap>
        <Form.Item label={t('trj.size_limit')} extra={t('trj.size_limit_hint')} {...fieldError(errors, 'sizeLimitKb')}>
          <InputNumber min={1} max={102400} precision={0} value={draft.sizeLimitKb} onChange={(v) => set({ sizeLimitKb: v })} data-testid="trojan-settings-size" />
        </Form.Item>
        <Form.Item label={t('trj.retention')} extra={t('trj.retention_hint')} {...fieldError(errors, 'isolateRetentionDays')}>
          <InputNumber min={0} max={3650} precision={0} value={draft.isolateRetentionDays} onChange={(v) => set({ isolateRetentionDays: v })} data-testid="trojan-settings-retention" />
        </Form.Item>
      </Flex>
      <Form.Item label={t('trj.handling')} extra={t('trj.handling_hint')} {...fieldError(errors, 'handling')}>
        <Radio.Group value={draft.handling} onChange={(e) => set({ handling: e.target.value as TrojanSettings['handling'] })} data-testid="trojan-settings-handling">
          {trojanAutoHandlings.map((h) => <Radio key={h} value={h} data-testid={`trojan-settings-handling-${h}`}>{t(`trj.handling_option.${h}`)}</Radio>)}
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('trj.whitelist')} extra={t('trj.whitelist_hint')} {...fieldError(errors, 'whitelist')}>
        <Input.TextArea rows={4} value={draft.whitelist} onChange={(e) => set({ whitelist: e.target.value })} data-testid="trojan-settings-whitelist" />
      </Form.Item>
      <Form.Item label={t('trj.schedule')} extra={t('trj.schedule_hint')} {...fieldError(errors, 'scheduleTime')}>
        <Space>
          <Switch checked={draft.scheduleEnabled} onChange={(scheduleEnabled) => set({ scheduleEnabled })} data-testid="trojan-settings-schedule" />
          <Typography.Text>{t('trj.schedule_time')}</Typography.Text>
          <Input style={{ width: 90 }} value={draft.scheduleTime} maxLength={5} onChange={(e) => set({ scheduleTime: e.target.value })} data-testid="trojan-settings-time" />
        </Space>
      </Form.Item>
      {canEdit && <Button type="primary" loading={save.isPending} onClick={onSave} data-testid="trojan-settings-save">{t('trj.save')}</Button>}
    </Form>
  );
}

function LibraryForm({ initial, canEdit }: { initial: LibraryView; canEdit: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [rules, setRules] = useState(initial.rules);
  const [hashes, setHashes] = useState(initial.hashes.join('\n'));
  const save = useMutation({
    mutationFn: () => saveLibrary({ rules, hashes: linesOf(hashes) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: trojanKey }),
  });
  // The compiler's message, as the server words it: shown here as text, beside the rules it is about.
  const error = save.error && isApiError(save.error) ? save.error.message : undefined;

  return (
    <Form layout="vertical" disabled={!canEdit} data-testid="trojan-library-form">
      <Typography.Paragraph type="secondary">{t('trj.library_hint')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" data-testid="trojan-library-counts">{t('trj.library_counts', { rules: initial.ruleCount, hashes: initial.hashCount })}</Typography.Paragraph>
      <Form.Item label={t('trj.library_rules')}>
        <Input.TextArea
          rows={8}
          value={rules}
          onChange={(e) => setRules(e.target.value)}
          placeholder={t('trj.library_rules_placeholder')}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
          data-testid="trojan-library-rules"
        />
      </Form.Item>
      <Form.Item label={t('trj.library_hashes')}>
        <Input.TextArea rows={4} value={hashes} onChange={(e) => setHashes(e.target.value)} placeholder={t('trj.library_hashes_placeholder')} spellCheck={false} style={{ fontFamily: 'monospace' }} data-testid="trojan-library-hashes" />
      </Form.Item>
      {error && <Alert type="error" showIcon title={<span style={{ whiteSpace: 'pre-wrap' }}>{error}</span>} data-testid="trojan-library-error" style={{ marginBottom: 12 }} />}
      {canEdit && <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="trojan-library-save">{t('trj.save_library')}</Button>}
    </Form>
  );
}

/** The `settings` tab (opened as a modal over the directories): scan settings and the custom library. */
export function SettingsPage() {
  const { t } = useTranslation();
  const canEdit = useCan('trojan', 'edit');
  const settings = useQuery({ queryKey: [...trojanKey, 'settings'], queryFn: fetchTrojanSettings, staleTime: Infinity });
  const library = useQuery({ queryKey: [...trojanKey, 'library'], queryFn: fetchLibrary, staleTime: Infinity });
  return (
    <Flex vertical gap={8} data-testid="trojan-settings-page">
      {settings.data ? <SettingsForm initial={settings.data} canEdit={canEdit} /> : <Spin />}
      <Divider />
      <Card size="small" variant="borderless" title={t('trj.library_title')}>
        {library.data ? <LibraryForm initial={library.data} canEdit={canEdit} /> : <Spin />}
      </Card>
    </Flex>
  );
}
