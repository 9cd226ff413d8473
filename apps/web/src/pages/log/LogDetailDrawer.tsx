import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogRow } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { formatDateTime } from '../../utils/format.ts';
import { levelColour, levelName, moduleName } from './names.ts';

export const monospace = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 } as const;

/** Every field of one event, with its solution and the raw evidence. */
export function LogDetailDrawer({ row, onClose }: { row: LogRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <Drawer open={row !== null} onClose={onClose} title={t('log.detail_title')} size="large" destroyOnHidden>
      {row && (
        <Descriptions column={1} bordered size="small" data-testid="log-detail">
          <Descriptions.Item label={t('log.col.time')}>{formatDateTime(row.time)}</Descriptions.Item>
          <Descriptions.Item label={t('log.col.account')}>{row.account || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('log.col.module')}>{moduleName(row.module, lang)}</Descriptions.Item>
          <Descriptions.Item label={t('log.col.source')}>{row.source || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('log.col.ip')}>{row.ip || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('log.col.level')}>
            <Tag color={levelColour(row.level)}>{levelName(row.level, lang)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('log.repeats_label')}>
            <span data-testid="log-detail-repeats">{row.repeats}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('log.col.content')}>
            <span data-testid="log-detail-content">{row.content}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('log.solution')}>
            <span data-testid="log-detail-solution">{row.solution || '-'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('log.detail')}>
            {row.detail ? (
              <Typography.Paragraph copyable={{ text: row.detail }} style={{ margin: 0 }}>
                <pre style={monospace} data-testid="log-detail-detail">{row.detail}</pre>
              </Typography.Paragraph>
            ) : (
              '-'
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
