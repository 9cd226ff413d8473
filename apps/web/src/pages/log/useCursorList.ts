import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

interface CursorPage<R> {
  list: R[];
  more: boolean;
}

/**
 * A newest-first list read page by page: the next page asks for rows `before` the id of the last
 * row shown, until the server answers `more: false`.
 */
export function useCursorList<R extends { id: number }>(queryKey: QueryKey, fetchPage: (before: number | undefined) => Promise<CursorPage<R>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.more ? last.list.at(-1)?.id : undefined),
  });
  const rows = query.data?.pages.flatMap((p) => p.list) ?? [];
  return {
    rows,
    loading: query.isPending && query.isFetching,
    loadingMore: query.isFetchingNextPage,
    hasMore: query.hasNextPage,
    /** Every row is shown: the last page said there is nothing older. */
    exhausted: query.isSuccess && !query.hasNextPage && rows.length > 0,
    loadMore: () => void query.fetchNextPage(),
    refetch: () => void query.refetch(),
  };
}
