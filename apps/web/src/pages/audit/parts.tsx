import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isMessageKey, translate, type AuditEvidence, type AuditLevel, type LocalizedText, type ReinforceReason } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';

const levelColours: Record<AuditLevel, string> = { hint: 'blue', warning: 'orange', danger: 'red' };

export function LevelTag({ level, testId }: { level: AuditLevel; testId?: string }) {
  const { t } = useTranslation();
  return <Tag color={levelColours[level]} data-testid={testId}>{t(`audit.level.${level}`)}</Tag>;
}

/** A catalogue text in the page's language. */
export function useLocalized(): (text: LocalizedText) => string {
  const lang = useLanguage();
  return (text) => text[lang];
}

/** An engine reason (`{key, values}` of the audit's messages) in the page's language. */
export function ReasonText({ reason, testId }: { reason: ReinforceReason; testId?: string }) {
  const lang = useLanguage();
  const text = isMessageKey(reason.key) ? translate(lang, reason.key, reason.values) : reason.key;
  return <Typography.Text type="danger" data-testid={testId}>{text}</Typography.Text>;
}

/** What a check saw: where, the value found and the value wanted. Values are raw, as the system holds them. */
export function Evidence({ evidence }: { evidence: readonly AuditEvidence[] }) {
  return (
    <div>
      {evidence.slice(0, 6).map((e, i) => {
        const where = e.file ? `${e.file}${e.line ? `:${e.line}` : ''}` : '';
        const value = [e.found, e.expected].filter((v) => v !== undefined).join(' → ');
        return (
          <div key={i}>
            <Typography.Text code={where !== ''}>{where}</Typography.Text> <Typography.Text>{value}</Typography.Text>{' '}
            {e.note && <Typography.Text type="secondary">{e.note}</Typography.Text>}
          </div>
        );
      })}
      {evidence.length > 6 && <Typography.Text type="secondary">{`+${evidence.length - 6}`}</Typography.Text>}
    </div>
  );
}
