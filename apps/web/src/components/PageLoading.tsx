import { Flex, Spin } from 'antd';

/** Shown while a lazily loaded page arrives. */
export function PageLoading() {
  return (
    <Flex justify="center" align="center" style={{ minHeight: '50vh' }}>
      <Spin size="large" />
    </Flex>
  );
}
