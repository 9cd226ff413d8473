import type { ReactNode } from 'react';
import { theme } from 'antd';

/**
 * The panel of the sign-in and register pages: antd Card's look (border, head, padding from the
 * theme tokens) without its code. antd's Card brings Tabs, Menu, Dropdown and Skeleton with it,
 * about 22 KB of gzip on the sign-in page, which must stay small (issue 27).
 */
export function AuthCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  const { token } = theme.useToken();
  const line = `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`;
  return (
    <section style={{ background: token.colorBgContainer, border: line, borderRadius: token.borderRadiusLG, color: token.colorText }}>
      <div
        style={{
          display: 'flex', alignItems: 'center', boxSizing: 'border-box', minHeight: token.fontSizeLG * token.lineHeightLG + token.padding * 2,
          padding: `0 ${token.paddingLG}px`, marginBottom: -1, borderBottom: line, color: token.colorTextHeading,
          fontWeight: token.fontWeightStrong, fontSize: token.fontSizeLG,
        }}
      >
        {title}
      </div>
      <div style={{ padding: token.paddingLG }}>{children}</div>
    </section>
  );
}
