import { App, Button, Card, Flex, Form, InputNumber, Space, Tag } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localDateTime, tempMinutesSchema, type BasicView, type ProtectionBody, type ProtectionState } from '@rampart/contracts';
import { errorField } from '../../api/errors.ts';
import { errorProps, issuesToErrors, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { testId } from '../../utils/testId.ts';
import { homeIndexKey } from '../dashboard/useHomeIndex.ts';
import { basicKey, saveBasic, setProtectionMode } from './basicApi.ts';

function StateTag({ state }: { state: ProtectionState | null }) {
  const { t } = useTranslation();
  if (!state) return <Tag data-testid="protection-state-unknown">{t('sys_basic.protection.unknown')}</Tag>;
  if (state.mode === 'on') return <Tag color="success" data-testid="protection-state-on">{t('sys_basic.protection.on')}</Tag>;
  if (state.mode === 'off') return <Tag color="error" data-testid="protection-state-off">{t('sys_basic.protection.off')}</Tag>;
  return (
    <Tag color="warning" data-testid="protection-state-temp_off">
      {t('sys_basic.protection.temp_off', { minutes: state.minutes_left ?? 0, until: state.until ? localDateTime(state.until) : '' })}
    </Tag>
  );
}

/**
 * System protection: its state (from the agent), how long a temporary disable lasts (a console
 * setting, default 720 minutes), disable temporarily or for good (each asks first), and on again.
 */
export function ProtectionCard({ view }: { view: BasicView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [minutes, setMinutes] = useState<number | null>(view.temp_minutes);
  const [errors, setErrors] = useState<FieldErrors>({});
  const refresh = () => {
    for (const queryKey of [basicKey, homeIndexKey]) void queryClient.invalidateQueries({ queryKey });
  };
  const onFieldError = (e: unknown) => {
    const field = errorField(e);
    if (field) setErrors({ temp_minutes: (e as Error).message });
  };
  const saveMinutes = useMutation({
    mutationFn: saveBasic,
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(basicKey, saved);
    },
    onError: onFieldError,
  });
  const change = useMutation({ mutationFn: (body: ProtectionBody) => setProtectionMode(body), onSettled: refresh, onError: onFieldError });

  /** The minutes as typed, checked by the contract's rule; null (and the message shown) when they are not valid. */
  const checkedMinutes = (): number | null => {
    const parsed = tempMinutesSchema.safeParse(minutes);
    if (!parsed.success) {
      setErrors({ temp_minutes: Object.values(issuesToErrors(parsed.error.issues, lang))[0] ?? '' });
      return null;
    }
    setErrors({});
    return parsed.data;
  };
  const save = () => {
    const value = checkedMinutes();
    if (value !== null) saveMinutes.mutate({ server_alias: view.server_alias, temp_minutes: value });
  };
  const disable = () => {
    const value = checkedMinutes();
    if (value === null) return;
    modal.confirm({
      title: t('sys_basic.protection.disable_confirm_title'),
      content: t('sys_basic.protection.disable_confirm', { minutes: value }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('protection-disable-confirm') },
      onOk: () => change.mutateAsync({ mode: 'temp_off', minutes: value }).catch(() => undefined),
    });
  };
  const stop = () =>
    modal.confirm({
      title: t('sys_basic.protection.stop_confirm_title'),
      content: t('sys_basic.protection.stop_confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('protection-stop-confirm') },
      onOk: () => change.mutateAsync({ mode: 'off' }).catch(() => undefined),
    });

  const state = view.protection;
  return (
    <Card title={t('sys_basic.protection.title')} data-testid="protection-card">
      <Form layout="vertical" style={{ maxWidth: 760 }} disabled={!canEdit} onFinish={save}>
        <Form.Item label={t('sys_basic.protection.state_label')}>
          <StateTag state={state} />
        </Form.Item>
        <Form.Item label={t('sys_basic.protection.minutes_label')} extra={t('sys_basic.protection.minutes_hint')} {...errorProps(errors, 'temp_minutes', 'protection')}>
          <Flex gap={8} wrap>
            <InputNumber
              style={{ width: 180 }}
              value={minutes}
              onChange={(v) => {
                setMinutes(v);
                setErrors({});
              }}
              suffix={t('sys_basic.protection.minutes_unit')}
              data-testid="protection-minutes"
            />
            <Button htmlType="submit" loading={saveMinutes.isPending} data-testid="protection-minutes-save">
              {t('sys_basic.save')}
            </Button>
          </Flex>
        </Form.Item>
        <Space wrap>
          {state && state.mode !== 'on' && (
            <Button type="primary" loading={change.isPending} onClick={() => change.mutate({ mode: 'on' })} data-testid="protection-enable">
              {t('sys_basic.protection.enable')}
            </Button>
          )}
          {state && state.mode !== 'off' && (
            <Button danger loading={change.isPending} onClick={disable} data-testid="protection-disable">
              {t('sys_basic.protection.disable')}
            </Button>
          )}
          {state && state.mode !== 'off' && (
            <Button danger onClick={stop} disabled={!canEdit || change.isPending} data-testid="protection-stop">
              {t('sys_basic.protection.stop')}
            </Button>
          )}
        </Space>
      </Form>
    </Card>
  );
}
