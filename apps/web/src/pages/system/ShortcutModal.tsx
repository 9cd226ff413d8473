import { Form, Input, InputNumber, Modal, Radio, Space, Switch } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  shortcutDefaultPauseMinutes, shortcutInputSchema, shortcutOperations,
  type ShortcutAction, type ShortcutOperation, type ShortcutSaved, type ShortcutView,
} from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, issuesToErrors, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { saveShortcut } from './shortcutsApi.ts';

/** Validity is picked as a number of hours from now (a phone-friendly choice), or no end, or the end it has. */
type ValidityMode = 'none' | 'hours' | 'keep';
const maxHours = 8760;
const defaultHours = 24;

interface Draft {
  name: string;
  operation: ShortcutOperation;
  minutes: number | null;
  ip: string;
  enabled: boolean;
  validity: ValidityMode;
  hours: number | null;
  max_uses: number | null;
}

function draftOf(initial: ShortcutView | null): Draft {
  const action = initial?.action;
  return {
    name: initial?.name ?? '',
    operation: action?.operation ?? 'pause_protection',
    minutes: action?.operation === 'pause_protection' ? action.minutes : shortcutDefaultPauseMinutes,
    ip: action?.operation === 'unblock_ip' ? action.ip : '',
    enabled: initial?.enabled ?? true,
    validity: initial ? (initial.expires_at === null ? 'none' : 'keep') : 'hours',
    hours: defaultHours,
    max_uses: initial?.max_uses ?? 0,
  };
}

function actionOf(d: Draft): ShortcutAction | { operation: ShortcutOperation; minutes?: number | null; ip?: string } {
  if (d.operation === 'pause_protection') return { operation: d.operation, minutes: d.minutes };
  if (d.operation === 'unblock_ip') return { operation: d.operation, ip: d.ip };
  return { operation: d.operation };
}

/** Adds or edits a shortcut; an add hands the new link to `onSaved` (shown once). */
export function ShortcutModal({ initial, onClose, onSaved }: { initial: ShortcutView | null; onClose: () => void; onSaved: (saved: ShortcutSaved) => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const err = (path: string) => errorProps(errors, path, 'sc-form');
  const change = (path: string, patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => withoutError(e, path));
  };

  const save = useMutation({
    mutationFn: saveShortcut,
    onSuccess: (saved) => onSaved(saved),
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [field]: e.message });
    },
  });

  const submit = () => {
    const hoursOk = draft.hours !== null && Number.isInteger(draft.hours) && draft.hours >= 1 && draft.hours <= maxHours;
    if (draft.validity === 'hours' && !hoursOk) {
      setErrors({ expires_at: t('sys_shortcut.hours_invalid') });
      return;
    }
    const expiresAt = draft.validity === 'none' ? null : draft.validity === 'keep' ? (initial?.expires_at ?? null) : Date.now() + (draft.hours ?? 0) * 3_600_000;
    const parsed = shortcutInputSchema.safeParse({
      ...(initial ? { id: initial.id } : {}),
      name: draft.name,
      action: actionOf(draft),
      enabled: draft.enabled,
      expires_at: expiresAt,
      max_uses: draft.max_uses,
    });
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <Modal
      open
      title={t(initial ? 'sys_shortcut.edit_title' : 'sys_shortcut.add_title')}
      okText={t('sys_shortcut.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, ...testId('sc-form-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="sc-form">
        <Form.Item label={t('sys_shortcut.name')} {...err('name')}>
          <Input value={draft.name} maxLength={64} onChange={(e) => change('name', { name: e.target.value })} data-testid="sc-form-name" />
        </Form.Item>
        <Form.Item label={t('sys_shortcut.operation')} {...err('action.operation')}>
          <Radio.Group
            value={draft.operation}
            onChange={(e) => change('action', { operation: e.target.value as ShortcutOperation })}
            options={shortcutOperations.map((op) => ({ value: op, label: <span data-testid={`sc-op-${op}`}>{t(`sys_shortcut.op.${op}`)}</span> }))}
          />
        </Form.Item>
        {draft.operation === 'pause_protection' && (
          <Form.Item label={t('sys_shortcut.minutes')} {...err('action.minutes')}>
            <InputNumber<number>
              style={{ width: 200 }}
              value={draft.minutes}
              suffix={t('sys_shortcut.minutes_unit')}
              onChange={(minutes) => change('action.minutes', { minutes })}
              data-testid="sc-form-minutes"
            />
          </Form.Item>
        )}
        {draft.operation === 'unblock_ip' && (
          <Form.Item label={t('sys_shortcut.ip')} {...err('action.ip')}>
            <Input value={draft.ip} placeholder={t('sys_shortcut.ip_placeholder')} maxLength={45} onChange={(e) => change('action.ip', { ip: e.target.value })} data-testid="sc-form-ip" />
          </Form.Item>
        )}
        <Form.Item label={t('sys_shortcut.enabled')}>
          <Switch checked={draft.enabled} onChange={(enabled) => change('enabled', { enabled })} data-testid="sc-form-enabled" />
        </Form.Item>
        <Form.Item label={t('sys_shortcut.validity_mode')} {...err('expires_at')}>
          <Space orientation="vertical">
            <Radio.Group
              value={draft.validity}
              onChange={(e) => change('expires_at', { validity: e.target.value as ValidityMode })}
              options={[
                ...(initial?.expires_at ? [{ value: 'keep', label: <span data-testid="sc-validity-keep">{t('sys_shortcut.validity_keep', { time: formatDateTime(initial.expires_at) })}</span> }] : []),
                { value: 'hours', label: <span data-testid="sc-validity-hours">{t('sys_shortcut.validity_hours')}</span> },
                { value: 'none', label: <span data-testid="sc-validity-none">{t('sys_shortcut.validity_none')}</span> },
              ]}
            />
            {draft.validity === 'hours' && (
              <InputNumber<number>
                style={{ width: 200 }}
                value={draft.hours}
                suffix={t('sys_shortcut.hours_unit')}
                onChange={(hours) => change('expires_at', { hours })}
                data-testid="sc-form-hours"
              />
            )}
          </Space>
        </Form.Item>
        <Form.Item label={t('sys_shortcut.max_uses')} extra={t('sys_shortcut.max_uses_hint')} {...err('max_uses')}>
          <InputNumber<number> style={{ width: 200 }} value={draft.max_uses} onChange={(v) => change('max_uses', { max_uses: v })} data-testid="sc-form-max-uses" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
