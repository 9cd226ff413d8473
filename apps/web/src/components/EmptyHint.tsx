import { Empty, Flex, Typography } from 'antd';
import type { TFunction } from 'i18next';

/*
 * What an empty list shows instead of antd's bare "No data": what the list holds and the next step.
 * Tables use it as `locale={{ emptyText: <EmptyHint … /> }}`; the shared lists (PagedSelectableTable,
 * TimedAddressList, CursorTable) take the texts as their `empty` prop. A test fails for a table
 * without one (tests/empty-states.test.ts).
 */

/** The texts of an empty list: what it holds (`text`) and, under it, what to do next (`next`). */
export interface EmptyTexts {
  text: string;
  next?: string;
}

/** The empty state: `text`, then `next` in grey. `testId` marks the whole, `<testId>-text` and `<testId>-next` its lines. */
export function EmptyHint({ text, next, testId }: EmptyTexts & { testId?: string }) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical gap={2} align="center">
          <Typography.Text data-testid={testId && `${testId}-text`}>{text}</Typography.Text>
          {next && (
            <Typography.Text type="secondary" data-testid={testId && `${testId}-next`}>
              {next}
            </Typography.Text>
          )}
        </Flex>
      }
      data-testid={testId}
    />
  );
}

/** The next step of a list the user adds to: the add button to use, or that this account may only look. */
export function addStep(t: TFunction, canAdd: boolean, button: string): string {
  return canAdd ? t('empty.add_with', { button }) : t('empty.read_only');
}

/** A keyword search that found nothing: what was searched for, and how to see everything again. */
export function searchEmpty(t: TFunction, keyword: string): EmptyTexts {
  return { text: t('empty.search', { keyword }), next: t('empty.search_next') };
}
