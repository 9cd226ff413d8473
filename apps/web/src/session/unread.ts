/** The query key of the unread-notice count (GET /log/notice/unread) the header badge shows. */
export const unreadKey = ['notice', 'unread'] as const;
