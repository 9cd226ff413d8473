import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

/** One labelled figure on the dashboard; `testid` is what browser tests read; `extra`: an action in the header (an update button). */
export function Figure({ label, testid, children, extra }: { label: ReactNode; testid: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <Card size="small" title={label} extra={extra} style={{ height: '100%' }}>
      <div data-testid={testid}>
        <Typography.Text strong>{children}</Typography.Text>
      </div>
    </Card>
  );
}
