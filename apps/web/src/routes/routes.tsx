import { lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { hiddenPages, sections, tabPermission, type SectionDef } from '@rampart/contracts';
import { PageLoading } from '../components/PageLoading.tsx';
import { ReloadNotice } from '../pages/errors/ReloadNotice.tsx';
import { tabPage } from '../pages/tabPages.ts';
import { LandingRedirect } from './LandingRedirect.tsx';
import { RequirePermission } from './RequirePermission.tsx';
import { TitleSync } from './TitleSync.tsx';
import { titled } from './title.ts';

/*
 * The whole route tree, built from `sections` and `hiddenPages` in @rampart/contracts:
 * /<section>/<tab> per tab (modal tabs are not routes: they open over the current tab),
 * /<section> redirects to its default tab, each level guarded by its permission key.
 * Pages are loaded lazily so the sign-in page does not carry the signed-in console; tabs with a page
 * of their own are listed in pages/tabPages.ts, the rest show the placeholder.
 */

/*
 * The error pages too: antd's Result brings large illustrations (about 11 KB of gzip) the sign-in page
 * does not need. If their chunk cannot load either (the app was upgraded under an open tab), a plain
 * notice offers a reload.
 */
const ErrorPage = lazy(() =>
  import('../pages/errors/ErrorPage.tsx').then((m) => ({ default: m.ErrorPage }), () => ({ default: ReloadNotice })),
);

function ErrorScreen({ status }: { status: 403 | 404 | 500 }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <ErrorPage status={status} />
    </Suspense>
  );
}

function RootShell() {
  return (
    <>
      <TitleSync />
      <Outlet />
    </>
  );
}

function tabRoutes(section: SectionDef): RouteObject[] {
  return section.tabs
    .filter((tab) => !tab.modal)
    .map((tab) => ({
      path: tab.key,
      handle: titled(`tab.${section.key}.${tab.key}`),
      element: <RequirePermission permission={tabPermission(section, tab.key)} />,
      children: [{ index: true, lazy: tabPage(section.key, tab.key) }],
    }));
}

function sectionRoute(section: SectionDef): RouteObject {
  if (section.key === 'dashboard') {
    return {
      path: section.key,
      handle: titled(`menu.${section.key}`),
      element: <RequirePermission permission={section.permission} />,
      children: [{ index: true, lazy: () => import('../pages/dashboard/DashboardPage.tsx').then((m) => ({ Component: m.DashboardPage })) }],
    };
  }
  return {
    path: section.key,
    handle: titled(`menu.${section.key}`),
    element: <RequirePermission permission={section.permission} />,
    children: [
      {
        lazy: () => import('../pages/section/SectionPage.tsx').then((m) => ({ element: <m.SectionPage section={section} /> })),
        children: [
          { index: true, lazy: () => import('../pages/section/DefaultTabRedirect.tsx').then((m) => ({ element: <m.DefaultTabRedirect section={section} /> })) },
          ...tabRoutes(section),
        ],
      },
    ],
  };
}

function hiddenRoutes(): RouteObject[] {
  return hiddenPages.map((page) => ({
    path: page.path.replace(/^\//, ''),
    handle: titled(`page.${page.key}`),
    element: <RequirePermission permission={page.permission} />,
    children: [{ index: true, lazy: page.key === 'dynamic_style_1'
      ? () => import('../pages/dynamic/BigScreenPage.tsx').then((m) => ({ Component: m.BigScreenPage }))
      : () => import('../pages/section/HiddenPage.tsx').then((m) => ({ element: <m.HiddenPage titleKey={`page.${page.key}`} /> })) }],
  }));
}

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <RootShell />,
      // Lazy routes resolve after the first render; show a spinner meanwhile.
      HydrateFallback: PageLoading,
      // A page that fails to load or render (e.g. a chunk missing after an upgrade) shows the 500 page.
      errorElement: <ErrorScreen status={500} />,
      children: [
        {
          path: '/user',
          lazy: () => import('../layouts/UserLayout.tsx').then((m) => ({ Component: m.UserLayout })),
          children: [
            { index: true, element: <Navigate to="/user/login" replace /> },
            { path: 'login', handle: titled('page.login'), lazy: () => import('../pages/login/LoginPage.tsx').then((m) => ({ Component: m.LoginPage })) },
            { path: 'register', handle: titled('page.register'), lazy: () => import('../pages/register/RegisterPage.tsx').then((m) => ({ Component: m.RegisterPage })) },
          ],
        },
        { path: '/403', handle: titled('page.403'), element: <ErrorScreen status={403} /> },
        { path: '/404', handle: titled('page.404'), element: <ErrorScreen status={404} /> },
        { path: '/500', handle: titled('page.500'), element: <ErrorScreen status={500} /> },
        {
          path: '/',
          lazy: () => import('../layouts/SignedInShell.tsx').then((m) => ({ Component: m.SignedInShell })),
          children: [{ index: true, element: <LandingRedirect /> }, ...sections.map(sectionRoute), ...hiddenRoutes()],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}
