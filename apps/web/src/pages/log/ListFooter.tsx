import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Under a cursor list: "load more" while there is more, "no more data" once there is not. */
export function ListFooter({ prefix, hasMore, exhausted, loading, onMore }: {
  prefix: string;
  hasMore: boolean;
  exhausted: boolean;
  loading: boolean;
  onMore: () => void;
}) {
  const { t } = useTranslation();
  if (!hasMore && !exhausted) return null;
  return (
    <Flex justify="center" style={{ marginTop: 16 }}>
      {hasMore ? (
        <Button onClick={onMore} loading={loading} data-testid={`${prefix}-load-more`}>
          {t('log.load_more')}
        </Button>
      ) : (
        <Typography.Text type="secondary" data-testid={`${prefix}-no-more`}>
          {t('log.no_more')}
        </Typography.Text>
      )}
    </Flex>
  );
}
