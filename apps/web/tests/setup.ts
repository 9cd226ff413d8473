import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { initI18n, i18next } from '../src/i18n/index.ts';
import enUS from '../src/locales/en-US.ts';
import zhCN from '../src/locales/zh-CN.ts';
import enUSPages from '../src/locales/en-US.pages.ts';
import zhCNPages from '../src/locales/zh-CN.pages.ts';
import { setFeedback, feedbackFrom } from '../src/api/feedback.ts';
import { setNavigation } from '../src/api/navigation.ts';
import { Modal, notification } from 'antd';

// jsdom lacks these; antd's responsive helpers (Grid, Sider breakpoints) and rc-components need them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom does not implement.
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => computed(el);

// Both catalogues whole: tests switch languages in place (the app loads its language's core chunk
// at start and the page texts after sign-in).
initI18n('en-US', { 'en-US': { ...enUS, ...enUSPages }, 'zh-CN': { ...zhCN, ...zhCNPages } });
// The first render of a lazy route transforms its modules on the fly; give it time. 10 s, not 5:
// with the whole suite (and a qemu VM test) sharing 2 cores, a first render once took over 5 s.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  localStorage.setItem('rampart.lang', 'en-US');
  void i18next.changeLanguage('en-US');
  window.location.hash = '';
});

afterEach(() => {
  cleanup();
  setNavigation(null);
  setFeedback(feedbackFrom(Modal, notification));
  Modal.destroyAll();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
