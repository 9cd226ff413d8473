import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { fetchUnread } from '../../api/endpoints.ts';
import { unreadKey } from '../../session/unread.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { useTopic } from '../../ws/hooks.ts';

/** Unread notices; shown only to roles that may read the event log. Live over the 'notice' topic. */
export function NoticeBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const allowed = useCan('log', 'get');
  const { data } = useQuery({ queryKey: unreadKey, queryFn: fetchUnread, enabled: allowed });
  useTopic('notice', (d) => queryClient.setQueryData(unreadKey, d));
  if (!allowed) return null;
  return (
    <Badge count={data?.unread ?? 0} size="small" data-testid="notice-badge">
      <Button type="text" icon={<BellOutlined />} aria-label={t('header.notices')} onClick={() => void navigate('/log/notice')} data-testid="notice-link" />
    </Badge>
  );
}
