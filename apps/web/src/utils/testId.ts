/** data-testid for props objects (okButtonProps and the like), typed as antd's data-* index signature. */
export function testId(id: string): { [key: `data-${string}`]: string } {
  return { 'data-testid': id };
}
