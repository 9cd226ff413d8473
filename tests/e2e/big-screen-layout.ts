/*
 * What a wall display shows of the big screen (`/dynamic/style_1`, issue 24): where each panel sits,
 * whether anything scrolls, the size of the charts and of the counters' text. Measured in the page.
 */
import type { Page } from 'playwright-core';

export const bigScreenPanels = [
  'dynamic-count-today', 'dynamic-count-yesterday', 'dynamic-count-total', 'dynamic-map', 'dynamic-latest', 'dynamic-trend',
  'dynamic-performance', 'dynamic-report', 'dynamic-ips', 'dynamic-security', 'dynamic-connections',
] as const;
export const bigScreenCharts = ['dynamic-map-chart', 'dynamic-trend-chart', 'dynamic-performance-chart'] as const;

export interface Box {
  id: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface BigScreenLayout {
  viewport: { width: number; height: number };
  /** The document's scroll size (page scrollbars). */
  page: { width: number; height: number };
  /** The big screen's own box scrolls when its content is larger than it. */
  screen: { scrollWidth: number; scrollHeight: number; clientWidth: number; clientHeight: number };
  panels: Box[];
  charts: { id: string; width: number; height: number }[];
  /** The smallest font size (px) of any text in the counter panels (title and figure). */
  counterFontPx: number;
}

export function measureBigScreen(page: Page): Promise<BigScreenLayout> {
  return page.evaluate(({ panels, charts }) => {
    // The little of the page's DOM used here: tests/ compile without the DOM library.
    interface El {
      getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number };
      querySelector(selector: string): El;
      scrollWidth: number; scrollHeight: number; clientWidth: number; clientHeight: number;
      parentElement: El;
      textContent: string;
    }
    const doc = globalThis as unknown as {
      document: { querySelector(selector: string): El; scrollingElement: El; createTreeWalker(root: El, show: number): { nextNode(): El | null } };
      innerWidth: number; innerHeight: number;
      getComputedStyle(el: El): { fontSize: string };
    };
    const byId = (testId: string) => doc.document.querySelector(`[data-testid="${testId}"]`);
    const box = (testId: string) => {
      const r = byId(testId).getBoundingClientRect();
      return { id: testId, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const screen = byId('dynamic-big-screen');
    const counterTexts: number[] = [];
    for (const key of ['today', 'yesterday', 'total']) {
      const walker = doc.document.createTreeWalker(byId(`dynamic-count-${key}`), 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent.trim()) counterTexts.push(parseFloat(doc.getComputedStyle(node.parentElement).fontSize));
      }
    }
    return {
      viewport: { width: doc.innerWidth, height: doc.innerHeight },
      page: { width: doc.document.scrollingElement.scrollWidth, height: doc.document.scrollingElement.scrollHeight },
      screen: { scrollWidth: screen.scrollWidth, scrollHeight: screen.scrollHeight, clientWidth: screen.clientWidth, clientHeight: screen.clientHeight },
      panels: panels.map(box),
      charts: charts.map((testId) => {
        const drawn = byId(testId).querySelector('svg, canvas').getBoundingClientRect();
        return { id: testId, width: drawn.width, height: drawn.height };
      }),
      counterFontPx: Math.min(...counterTexts),
    };
  }, { panels: [...bigScreenPanels], charts: [...bigScreenCharts] });
}

/** Pairs of panels whose boxes share more than a hairline. */
export function overlaps(panels: readonly Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < panels.length; i++) {
    for (let j = i + 1; j < panels.length; j++) {
      const [a, b] = [panels[i]!, panels[j]!];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) found.push(`${a.id} × ${b.id}`);
    }
  }
  return found;
}

/** Panels not wholly inside the window. */
export function outside(panels: readonly Box[], viewport: { width: number; height: number }): string[] {
  return panels.filter((p) => p.left < 0 || p.top < 0 || p.right > viewport.width + 0.5 || p.bottom > viewport.height + 0.5).map((p) => `${p.id} (${Math.round(p.left)},${Math.round(p.top)})-(${Math.round(p.right)},${Math.round(p.bottom)})`);
}
