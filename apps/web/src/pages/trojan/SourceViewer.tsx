import { Alert, Button, Flex, Modal, Space, Spin, Typography } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrojanIsolated } from '@rampart/contracts';
import { fetchSource, trojanKey, type TrojanSource } from './api.ts';
import { useReasonText } from './parts.tsx';

/** UTF-8 length of one code point. */
const utf8Length = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * The text cut into plain and highlighted pieces by the findings' byte offsets. Every piece is a
 * React text child: the browser shows it, never parses it as HTML. Binary files are not highlighted
 * (their bytes were replaced, so offsets no longer line up).
 */
function pieces(source: TrojanSource, title: (i: number) => string): ReactNode[] {
  const ranges = source.binary ? [] : source.findings
    .filter((f) => f.length > 0)
    .map((f, i) => ({ start: f.offset, end: f.offset + f.length, i }))
    .sort((a, b) => a.start - b.start);
  if (ranges.length === 0) return [source.text];
  // Byte offset → string index, walking code points once.
  const byteToIndex = new Map<number, number>();
  let bytes = 0;
  let index = 0;
  for (const ch of source.text) {
    byteToIndex.set(bytes, index);
    bytes += utf8Length(ch.codePointAt(0)!);
    index += ch.length;
  }
  byteToIndex.set(bytes, index);
  const at = (byte: number) => {
    for (let b = Math.min(byte, bytes); b >= 0; b--) {
      const found = byteToIndex.get(b);
      if (found !== undefined) return found;
    }
    return 0;
  };
  const out: ReactNode[] = [];
  let cursor = 0;
  for (const range of ranges) {
    const start = Math.max(cursor, at(range.start));
    const end = at(range.end);
    if (end <= start) continue;
    if (start > cursor) out.push(source.text.slice(cursor, start));
    out.push(<mark key={`f${range.i}`} title={title(range.i)} data-testid="trojan-source-finding">{source.text.slice(start, end)}</mark>);
    cursor = end;
  }
  if (cursor < source.text.length) out.push(source.text.slice(cursor));
  return out;
}

/**
 * The read-only source viewer of isolated files: previous / next through the list shown, full
 * screen. The text sits in a <pre> as text; nothing of it is run or rendered.
 */
export function SourceViewer({ rows, startId, onClose }: { rows: TrojanIsolated[]; startId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const [id, setId] = useState(startId);
  const [full, setFull] = useState(false);
  const position = rows.findIndex((r) => r.id === id);
  const row = rows[position];
  const source = useQuery({ queryKey: [...trojanKey, 'source', id], queryFn: () => fetchSource(id) });
  const data = source.data;
  const shown = useMemo(
    () => (data ? pieces(data, (i) => { const f = data.findings[i]!; return `${reasonText(f.reason, f.rule)} (${f.offset})`; }) : []),
    [data, reasonText],
  );

  return (
    <Modal
      open
      title={<span data-testid="trojan-source-title">{t('trj.viewer_title', { name: row?.name ?? '' })}</span>}
      onCancel={onClose}
      width={full ? '100vw' : 960}
      style={full ? { top: 0, maxWidth: '100vw', paddingBottom: 0 } : undefined}
      styles={{ body: { height: full ? 'calc(100vh - 160px)' : '60vh', display: 'flex', flexDirection: 'column' } }}
      footer={
        <Flex justify="space-between">
          <Space>
            <Button icon={<LeftOutlined />} disabled={position <= 0} onClick={() => setId(rows[position - 1]!.id)} data-testid="trojan-source-previous">{t('trj.viewer_previous')}</Button>
            <Button icon={<RightOutlined />} disabled={position < 0 || position >= rows.length - 1} onClick={() => setId(rows[position + 1]!.id)} data-testid="trojan-source-next">{t('trj.viewer_next')}</Button>
          </Space>
          <Space>
            <Button icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={() => setFull((f) => !f)} data-testid="trojan-source-fullscreen">
              {full ? t('trj.viewer_exit_fullscreen') : t('trj.viewer_fullscreen')}
            </Button>
            <Button onClick={onClose} data-testid="trojan-source-close">{t('trj.viewer_close')}</Button>
          </Space>
        </Flex>
      }
      destroyOnHidden
    >
      <Flex vertical gap={8} style={{ flex: 1, minHeight: 0 }} data-testid="trojan-source" data-fullscreen={full ? 'true' : 'false'}>
        {row && <Typography.Text type="secondary" style={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="trojan-source-path">{row.originalPath}</Typography.Text>}
        <Typography.Text type="secondary">
          {t('trj.viewer_readonly')}
          {data && data.findings.length > 0 && !data.binary && ` ${t('trj.viewer_findings', { count: data.findings.length })}`}
        </Typography.Text>
        {data?.truncated && <Alert type="warning" showIcon title={t('trj.viewer_truncated')} />}
        {data?.binary && <Alert type="info" showIcon title={t('trj.viewer_binary')} />}
        {source.isFetching && !data ? <Spin /> : (
          <pre
            data-testid="trojan-source-text"
            style={{ flex: 1, minHeight: 0, overflow: 'auto', margin: 0, padding: 12, background: 'rgba(0,0,0,0.04)', fontSize: 12, lineHeight: 1.5, whiteSpace: 'pre', tabSize: 4 }}
          >
            {shown}
          </pre>
        )}
      </Flex>
    </Modal>
  );
}
