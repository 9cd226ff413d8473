import { act, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp, Button } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../src/App.tsx';

/** A page with a button that opens a confirm dialog, as the settings tabs do. */
function Confirming() {
  const { modal } = AntApp.useApp();
  return <Button onClick={() => modal.confirm({ title: 'Sure?', content: <span data-testid="dialog-body">body</span> })}>open</Button>;
}

/** jsdom answers every media query "no" (tests/setup.ts); this one answers the reduced-motion query as told. */
function systemAsksForLessMotion(reduce: boolean) {
  const original = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ ...original(query), matches: reduce && query === '(prefers-reduced-motion: reduce)' }));
}

async function openDialog(): Promise<HTMLElement> {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <Confirming />
    </AppProviders>,
  );
  await act(async () => screen.getByText('open').click());
  return (await screen.findByTestId('dialog-body')).closest('.ant-modal') as HTMLElement;
}

afterEach(() => vi.restoreAllMocks());

describe('the operating system\'s reduced-motion setting', () => {
  // Without motion the dialog still passes its measuring step (where it sets its transform origin),
  // then shows at once; with motion it goes on to the running zoom (jsdom never ends an animation).
  it('opens dialogs without their zoom when the system asks for less motion', async () => {
    systemAsksForLessMotion(true);
    const dialog = await openDialog();
    await waitFor(() => expect(dialog.className).not.toMatch(/zoom-appear/));
  });

  it('keeps the zoom otherwise', async () => {
    systemAsksForLessMotion(false);
    const dialog = await openDialog();
    await waitFor(() => expect(dialog.className).toMatch(/ant-zoom-appear-active/));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dialog.className).toMatch(/ant-zoom-appear-active/);
  });
});
