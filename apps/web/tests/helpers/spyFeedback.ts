import { vi } from 'vitest';
import { setFeedback, type Feedback, type ModalOptions, type NoticeOptions } from '../../src/api/feedback.ts';

/** Replaces the API client's modals and notifications with spies that record what the user would see. */
export function spyFeedback() {
  const destroyed: string[] = [];
  const modal = (kind: string) =>
    vi.fn((_o: ModalOptions) => ({ destroy: vi.fn(() => void destroyed.push(kind)) }));
  const spies = {
    success: modal('success'),
    warning: modal('warning'),
    error: modal('error'),
    notifyError: vi.fn((_o: NoticeOptions) => {}),
    notifyInfo: vi.fn((_o: NoticeOptions) => {}),
  };
  setFeedback(spies satisfies Feedback);
  return { ...spies, destroyed };
}
