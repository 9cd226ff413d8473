import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders, createQueryClient } from '../../src/App.tsx';
import { setNavigation } from '../../src/api/navigation.ts';
import { buildRoutes } from '../../src/routes/routes.tsx';

/** The real route tree in a memory router at `path`, with the app's providers. */
export function renderApp(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  setNavigation({
    go: (to) => void router.navigate(to),
    current: () => router.state.location.pathname + router.state.location.search,
  });
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, location: () => router.state.location.pathname + router.state.location.search };
}
