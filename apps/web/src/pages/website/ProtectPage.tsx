import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Switch, Table, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ccVerifications, emptyRefererActions, websiteModes, type TimeLimitRule, type WebsiteProtectInput, type WebsiteProtectView } from '@rampart/contracts';
import { EmptyHint, addStep } from '../../components/EmptyHint.tsx';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { Group, LinesField, NumberField, SelectField, TextField } from './controls.tsx';
import { SettingsTabPage, type FormKit } from './SettingsTab.tsx';

/** A time-limited rule while edited: its windows as typed, `08:00-12:00, 14:00-18:00`. */
type TimeRuleDraft = Omit<TimeLimitRule, 'windows'> & { windows: string };
/** The protect tab while edited: rules with typed windows, and a new password ('' keeps the stored one). */
type ProtectDraft = Omit<WebsiteProtectView, 'time_limits' | 'authorization'> & {
  time_limits: TimeRuleDraft[];
  authorization: WebsiteProtectView['authorization'] & { password: string };
};

const windowsText = (windows: TimeLimitRule['windows']) => windows.map((w) => `${w.start}-${w.end}`).join(', ');
/** Typed windows → the contract's; a piece that is not `start-end` keeps its text so the contract names it wrong. */
function parseWindows(text: string): TimeLimitRule['windows'] {
  return text
    .split(/[,;\n]+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .map((piece) => {
      const [start = '', end = ''] = piece.split(/\s*[-~]\s*/);
      return { start, end };
    });
}

function toDraft(view: WebsiteProtectView): ProtectDraft {
  return {
    ...view,
    time_limits: view.time_limits.map((rule) => ({ ...rule, windows: windowsText(rule.windows) })),
    authorization: { ...view.authorization, password: '' },
  };
}

function toInput(draft: ProtectDraft): WebsiteProtectInput {
  const { password_set: _set, password, ...authorization } = draft.authorization;
  return {
    ...draft,
    time_limits: draft.time_limits.map((rule) => ({ ...rule, windows: parseWindows(rule.windows) })),
    // Blank keeps the stored password (it is never sent back).
    authorization: { ...authorization, password: password === '' ? null : password },
  };
}

/** The first error at `path` or below it (a window's `end` shows on the rule's windows box). */
function errorUnder(errors: FieldErrors, path: string): string | undefined {
  return errors[path] ?? Object.entries(errors).find(([key]) => key.startsWith(`${path}.`))?.[1];
}

function TimeLimits({ kit }: { kit: FormKit<ProtectDraft> }) {
  const { t } = useTranslation();
  const rules = kit.draft.time_limits;
  const setRules = (next: TimeRuleDraft[]) => kit.set('time_limits', next);
  const patch = (i: number, change: Partial<TimeRuleDraft>) => setRules(rules.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const cell = (path: string, control: ReactNode) => {
    const message = errorUnder(kit.errors, path);
    return (
      <Form.Item style={{ marginBottom: 0 }} validateStatus={message ? 'error' : undefined} help={message ? <span data-testid={`web-protect-error-${path}`}>{message}</span> : undefined}>
        {control}
      </Form.Item>
    );
  };
  return (
    <>
      <Table<TimeRuleDraft>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rules}
        locale={{ emptyText: <EmptyHint text={t('empty.web.time_limits')} next={addStep(t, !kit.readOnly, t('web.protect.time_add'))} /> }}
        data-testid="web-protect-time-limits"
        columns={[
          {
            title: t('web.protect.time_url'),
            render: (_v, r, i) =>
              cell(`time_limits.${i}.url`, <Input value={r.url} disabled={kit.readOnly} placeholder={t('web.ph.url')} onChange={(e) => patch(i, { url: e.target.value })} data-testid={`web-protect-time-${i}-url`} />),
          },
          {
            title: t('web.protect.time_windows'),
            render: (_v, r, i) =>
              cell(`time_limits.${i}.windows`, <Input value={r.windows} disabled={kit.readOnly} placeholder={t('web.ph.windows')} onChange={(e) => patch(i, { windows: e.target.value })} data-testid={`web-protect-time-${i}-windows`} />),
          },
          {
            title: t('web.enabled'),
            render: (_v, r, i) => <Switch checked={r.enabled} disabled={kit.readOnly} onChange={(on) => patch(i, { enabled: on })} data-testid={`web-protect-time-${i}-enabled`} />,
          },
          {
            title: t('web.actions'),
            render: (_v, _r, i) =>
              kit.readOnly ? null : (
                <Button icon={<DeleteOutlined />} aria-label={t('web.delete')} onClick={() => setRules(rules.filter((_x, j) => j !== i))} data-testid={`web-protect-time-${i}-remove`} />
              ),
          },
        ]}
      />
      {!kit.readOnly && (
        <Button
          style={{ marginTop: 8 }}
          icon={<PlusOutlined />}
          onClick={() => setRules([...rules, { id: Math.max(0, ...rules.map((r) => r.id)) + 1, enabled: true, url: '', windows: '08:00-18:00' }])}
          data-testid="web-protect-time-add"
        >
          {t('web.protect.time_add')}
        </Button>
      )}
    </>
  );
}

/** Access protection: CC, 404 scans, hotlinking, time-limited access and the authorization password. */
export function ProtectPage() {
  const { t } = useTranslation();
  const perMinute = t('web.unit.per_minute');
  const minutes = t('web.unit.minutes');
  return (
    <SettingsTabPage<'protect', ProtectDraft>
      tab="protect"
      toDraft={toDraft}
      toInput={toInput}
      render={(kit) => (
        <>
          <Group kit={kit} name="cc" title={t('web.protect.cc')} hint={t('web.protect.cc_hint')} enabled="cc.enabled">
            <Flex gap={24} wrap>
              <SelectField kit={kit} path="cc.mode" label={t('web.protect.mode')} values={websiteModes} labelOf={(v) => t(`web.mode.${v}`)} />
              {kit.draft.cc.mode === 'loose' && (
                <SelectField kit={kit} path="cc.verification" label={t('web.protect.verification')} values={ccVerifications} labelOf={(v) => t(`web.verification.${v}`)} />
              )}
              <NumberField kit={kit} path="cc.per_minute" label={t('web.protect.per_minute')} unit={perMinute} />
              <NumberField kit={kit} path="cc.block_minutes" label={t('web.protect.block_minutes')} unit={minutes} />
            </Flex>
          </Group>
          <Group kit={kit} name="scan_404" title={t('web.protect.scan_404')} hint={t('web.protect.scan_404_hint')} enabled="scan_404.enabled">
            <Flex gap={24} wrap>
              <NumberField kit={kit} path="scan_404.per_minute" label={t('web.protect.per_minute_404')} unit={perMinute} />
              <NumberField kit={kit} path="scan_404.block_minutes" label={t('web.protect.block_minutes')} unit={minutes} />
            </Flex>
          </Group>
          <Group kit={kit} name="hotlink" title={t('web.protect.hotlink')} hint={t('web.protect.hotlink_hint')} enabled="hotlink.enabled">
            <LinesField kit={kit} path="hotlink.extensions" label={t('web.protect.hotlink_extensions')} join=", " split={(s) => s.split(/[\s,;]+/).filter((x) => x !== '')} rows={2} hint={t('web.hint.extensions')} />
            <LinesField kit={kit} path="hotlink.referers" label={t('web.protect.hotlink_referers')} hint={t('web.hint.domains')} placeholder={t('web.ph.domains')} />
            <SelectField kit={kit} path="hotlink.empty_referer" label={t('web.protect.empty_referer')} values={emptyRefererActions} labelOf={(v) => t(`web.empty_referer.${v}`)} />
          </Group>
          <Group kit={kit} name="time_limits" title={t('web.protect.time_limits')} hint={t('web.protect.time_limits_hint')}>
            <TimeLimits kit={kit} />
          </Group>
          <Group kit={kit} name="authorization" title={t('web.protect.authorization')} hint={t('web.protect.authorization_hint')} enabled="authorization.enabled">
            <Flex gap={24} wrap>
              <NumberField kit={kit} path="authorization.validity_minutes" label={t('web.protect.validity')} unit={minutes} />
              <TextField
                kit={kit}
                path="authorization.password"
                password
                label={t('web.protect.password')}
                placeholder={kit.draft.authorization.password_set ? t('web.protect.password_keep') : t('web.protect.password_new')}
              />
            </Flex>
            <Typography.Text type="secondary" data-testid="web-protect-password-rule">{t('web.protect.password_rule')}</Typography.Text>
          </Group>
        </>
      )}
    />
  );
}
