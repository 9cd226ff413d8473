import { Card, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorProps, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { linesOf } from './draftPath.ts';
import type { FormKit } from './SettingsTab.tsx';

/* The fields the website settings tabs are built of. Test ids: `web-<tab>-<path>`; errors `web-<tab>-error-<path>`. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Kit = FormKit<any>;

const id = (kit: Kit, path: string) => `web-${kit.tab}-${path}`;
const err = (kit: Kit, path: string) => errorProps(kit.errors, path, `web-${kit.tab}`);

/** An ON/OFF switch. */
export function SwitchField({ kit, path, label }: { kit: Kit; path: string; label?: string }) {
  const { t } = useTranslation();
  const control = (
    <Switch
      checked={kit.get(path) === true}
      disabled={kit.readOnly}
      checkedChildren={t('common.on')}
      unCheckedChildren={t('common.off')}
      onChange={(on) => kit.set(path, on)}
      data-testid={id(kit, path)}
    />
  );
  return label === undefined ? control : <Form.Item label={label} {...err(kit, path)}>{control}</Form.Item>;
}

/** A whole number with its unit (per minute, minutes, bytes…); empty stays empty so the check can say so. */
export function NumberField({ kit, path, label, unit, extra }: { kit: Kit; path: string; label: string; unit?: string; extra?: string }) {
  const value = kit.get(path);
  return (
    <Form.Item label={label} {...err(kit, path)} extra={kit.errors[path] ? undefined : extra}>
      <InputNumber<number>
        style={{ width: 200 }}
        value={typeof value === 'number' ? value : null}
        suffix={unit}
        precision={0}
        disabled={kit.readOnly}
        onChange={(v) => kit.set(path, v)}
        data-testid={id(kit, path)}
      />
    </Form.Item>
  );
}

/** One of a few values; `labelOf` names each. */
export function SelectField({ kit, path, label, values, labelOf }: { kit: Kit; path: string; label: string; values: readonly string[]; labelOf: (v: string) => string }) {
  return (
    <Form.Item label={label} {...err(kit, path)}>
      <Select
        style={{ minWidth: 180 }}
        value={kit.get(path) as string}
        disabled={kit.readOnly}
        onChange={(v: string) => kit.set(path, v)}
        options={values.map((v) => ({ value: v, label: labelOf(v), 'data-testid': `${id(kit, path)}-${v}` }))}
        data-testid={id(kit, path)}
      />
    </Form.Item>
  );
}

/** A line of text. */
export function TextField({ kit, path, label, placeholder, password }: { kit: Kit; path: string; label: string; placeholder?: string; password?: boolean }) {
  const value = (kit.get(path) as string | undefined) ?? '';
  const props = { value, placeholder, disabled: kit.readOnly, onChange: (e: { target: { value: string } }) => kit.set(path, e.target.value), 'data-testid': id(kit, path) };
  return <Form.Item label={label} {...err(kit, path)}>{password ? <Input.Password autoComplete="new-password" {...props} /> : <Input {...props} />}</Form.Item>;
}

/** The error of a list box or of one of its entries (`path.3`), naming the line of the entry. */
export function listError(errors: FieldErrors, path: string, lineLabel: (line: number, message: string) => string): string | undefined {
  if (errors[path] !== undefined) return errors[path];
  for (const [key, message] of Object.entries(errors)) {
    const rest = key.startsWith(`${path}.`) ? key.slice(path.length + 1) : null;
    if (rest !== null && /^\d+$/.test(rest)) return lineLabel(Number(rest) + 1, message);
  }
  return undefined;
}

/**
 * A list edited as text, one entry per line (empty lines dropped). The box keeps the text as typed;
 * the draft holds the entries. An error on an entry is shown on the box with the entry's number.
 */
export function LinesField({ kit, path, label, hint, placeholder, rows = 4, join = '\n', split = linesOf }: {
  kit: Kit;
  path: string;
  label: string;
  hint?: ReactNode;
  placeholder?: string;
  rows?: number;
  join?: string;
  split?: (text: string) => string[];
}) {
  const { t } = useTranslation();
  const entries = (kit.get(path) as string[] | undefined) ?? [];
  const [typed, setText] = useState(() => entries.join(join));
  // The text as typed while it still says what the draft holds; the draft's entries when they changed
  // elsewhere (reloaded, reset, stored in the console's normal form).
  const typedEntries = split(typed);
  const text = typedEntries.length === entries.length && typedEntries.every((entry, i) => entry === entries[i]) ? typed : entries.join(join);
  const message = listError(kit.errors, path, (line, m) => t('web.line_error', { line, message: m }));
  return (
    <Form.Item
      label={label}
      validateStatus={message ? 'error' : undefined}
      help={message ? <span data-testid={`web-${kit.tab}-error-${path}`}>{message}</span> : undefined}
      extra={message ? undefined : hint}
    >
      <Input.TextArea
        rows={rows}
        value={text}
        placeholder={placeholder}
        disabled={kit.readOnly}
        onChange={(e) => {
          setText(e.target.value);
          kit.set(path, split(e.target.value));
        }}
        data-testid={id(kit, path)}
      />
    </Form.Item>
  );
}

/** A settings group: a card with its title, an optional ON/OFF switch (`<enabled>`), a hint and its fields. */
export function Group({ kit, name, title, hint, enabled, children }: { kit: Kit; name: string; title: string; hint?: string; enabled?: string; children?: ReactNode }) {
  return (
    <Card size="small" title={title} extra={enabled ? <SwitchField kit={kit} path={enabled} /> : undefined} data-testid={`web-${kit.tab}-group-${name}`}>
      {hint && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
      <Form layout="vertical">{children}</Form>
    </Card>
  );
}
