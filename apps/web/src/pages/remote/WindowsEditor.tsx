import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { weekDays, type RemoteWindow } from '@rampart/contracts';
import { newWindow } from './remoteForm.ts';

/** Time windows, several: days, start and end (local time of the server). None means at any time. */
export function WindowsEditor({ windows, onChange, readOnly, errors }: {
  windows: RemoteWindow[];
  onChange: (next: RemoteWindow[]) => void;
  readOnly: boolean;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<RemoteWindow>) => onChange(windows.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <Flex vertical gap={8} data-testid="remote-windows">
      {windows.length === 0 && <Typography.Text type="secondary">{t('remote.windows_none')}</Typography.Text>}
      {windows.map((w, i) => {
        const error = errors[`windows.${i}.end`] ?? errors[`windows.${i}.start`] ?? errors[`windows.${i}.days`];
        return (
          <Flex key={i} vertical gap={2} data-testid={`remote-window-${i}`}>
            <Flex gap={8} align="center" wrap>
              <Checkbox.Group
                disabled={readOnly}
                value={w.days}
                onChange={(days) => set(i, { days: [...days].sort() })}
                options={weekDays.map((d) => ({ value: d, label: t(`remote.day.${d}`) }))}
              />
              <Input style={{ width: 90 }} disabled={readOnly} value={w.start} onChange={(e) => set(i, { start: e.target.value })} aria-label={t('remote.start')} data-testid={`remote-window-${i}-start`} />
              <span>–</span>
              <Input style={{ width: 90 }} disabled={readOnly} value={w.end} onChange={(e) => set(i, { end: e.target.value })} aria-label={t('remote.end')} data-testid={`remote-window-${i}-end`} />
              {!readOnly && <Button icon={<DeleteOutlined />} onClick={() => onChange(windows.filter((_, j) => j !== i))} aria-label={t('remote.remove_window')} />}
            </Flex>
            {error && <Typography.Text type="danger" data-testid={`remote-window-${i}-error`}>{error}</Typography.Text>}
          </Flex>
        );
      })}
      {!readOnly && windows.length < 20 && (
        <Button icon={<PlusOutlined />} onClick={() => onChange([...windows, newWindow()])} style={{ alignSelf: 'flex-start' }} data-testid="remote-window-add">
          {t('remote.add_window')}
        </Button>
      )}
    </Flex>
  );
}
