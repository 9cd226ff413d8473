import type { App } from 'antd';
import type { TFunction } from 'i18next';
import { isBroadProtectedPath } from '@rampart/contracts';
import { testId } from '../../utils/testId.ts';

type HookAPI = ReturnType<typeof App.useApp>['modal'];

/** The first path among `paths` that covers / or all of /etc, if any. */
export function broadPathOf(paths: readonly string[]): string | undefined {
  return paths.find(isBroadProtectedPath);
}

function ask(modal: HookAPI, options: { title: string; content: string; okText: string; cancelText: string; step: 1 | 2 }): Promise<boolean> {
  return new Promise((resolve) => {
    modal.confirm({
      title: options.title,
      content: options.content,
      okText: options.okText,
      cancelText: options.cancelText,
      okButtonProps: { danger: true, ...testId(`tamper-broad-ok-${options.step}`) },
      cancelButtonProps: testId(`tamper-broad-cancel-${options.step}`),
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * How many confirmations to send: 0 when no path is broad; 2 when the user confirmed a broad path in
 * two distinct dialogs; null when they cancelled either (nothing is sent).
 */
export async function confirmBroadPaths(modal: HookAPI, t: TFunction, paths: readonly string[]): Promise<0 | 2 | null> {
  const path = broadPathOf(paths);
  if (path === undefined) return 0;
  const cancelText = t('common.cancel');
  if (!(await ask(modal, { title: t('tamper.broad_title_1'), content: t('tamper.broad_body_1', { path }), okText: t('tamper.broad_ok_1'), cancelText, step: 1 }))) return null;
  if (!(await ask(modal, { title: t('tamper.broad_title_2'), content: t('tamper.broad_body_2', { path }), okText: t('tamper.broad_ok_2'), cancelText, step: 2 }))) return null;
  return 2;
}
