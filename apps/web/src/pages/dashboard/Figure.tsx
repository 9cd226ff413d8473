import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

/** One labelled figure on the dashboard; `testid` is what browser tests read. */
export function Figure({ label, testid, children }: { label: ReactNode; testid: string; children: ReactNode }) {
  return (
    <Card size="small" title={label} style={{ height: '100%' }}>
      <div data-testid={testid}>
        <Typography.Text strong>{children}</Typography.Text>
      </div>
    </Card>
  );
}
