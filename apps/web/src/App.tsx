import { useEffect, useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { feedbackFrom, setFeedback } from './api/feedback.ts';
import { setNavigation } from './api/navigation.ts';
import { buildRoutes } from './routes/routes.tsx';
import { LayoutSettingsProvider, useLayoutSettings } from './settings/LayoutSettingsContext.tsx';
import { useReducedMotion } from './settings/useReducedMotion.ts';

export function createQueryClient(): QueryClient {
  // The API client already tells the user about failures; retrying would repeat the message.
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

/** Routes the API client's modals and notifications through antd's context (theme, locale). */
function FeedbackBridge({ children }: { children: ReactNode }) {
  const { modal, notification } = AntApp.useApp();
  useEffect(() => setFeedback(feedbackFrom(modal, notification)), [modal, notification]);
  return children;
}

function ThemedApp({ children }: { children: ReactNode }) {
  const { settings } = useLayoutSettings();
  const { i18n } = useTranslation();
  const reducedMotion = useReducedMotion();
  const algorithm = settings.navTheme === 'realDark' ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const token = { colorPrimary: settings.colorPrimary, colorInfo: settings.colorPrimary, colorLink: settings.colorPrimary, motion: !reducedMotion };
  return (
    <ConfigProvider locale={i18n.language === 'en-US' ? enUS : zhCN} theme={{ algorithm, token }}>
      <AntApp>
        <FeedbackBridge>{children}</FeedbackBridge>
      </AntApp>
    </ConfigProvider>
  );
}

/** Everything around the router: settings, theme, antd context, react-query. Tests reuse it. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  return (
    <LayoutSettingsProvider>
      <ThemedApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ThemedApp>
    </LayoutSettingsProvider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createHashRouter(buildRoutes()));
  useEffect(() => {
    setNavigation({
      go: (to) => void router.navigate(to),
      current: () => router.state.location.pathname + router.state.location.search,
    });
    return () => setNavigation(null);
  }, [router]);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
