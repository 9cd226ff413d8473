import type { ReactNode } from 'react';
import { Modal, notification } from 'antd';

/*
 * How the API client talks to the user. By default antd's static functions; the App replaces them
 * with the context-aware ones from App.useApp() so modals follow the chosen theme and language.
 * Tests replace them with spies.
 */

export interface ModalHandle {
  destroy(): void;
}

export interface ModalOptions {
  title?: ReactNode;
  content?: ReactNode;
  okText?: ReactNode;
}

export interface NoticeOptions {
  title: ReactNode;
  description?: ReactNode;
}

export interface Feedback {
  success(options: ModalOptions): ModalHandle;
  warning(options: ModalOptions): ModalHandle;
  error(options: ModalOptions): ModalHandle;
  notifyError(options: NoticeOptions): void;
  notifyInfo(options: NoticeOptions): void;
}

interface ModalApi {
  success(o: ModalOptions): ModalHandle;
  warning(o: ModalOptions): ModalHandle;
  error(o: ModalOptions): ModalHandle;
}
interface NotificationApi {
  error(o: NoticeOptions): void;
  info(o: NoticeOptions): void;
}

export function feedbackFrom(modal: ModalApi, notice: NotificationApi): Feedback {
  return {
    success: (o) => modal.success(o),
    warning: (o) => modal.warning(o),
    error: (o) => modal.error(o),
    notifyError: (o) => notice.error(o),
    notifyInfo: (o) => notice.info(o),
  };
}

let current: Feedback = feedbackFrom(Modal, notification);

export function setFeedback(feedback: Feedback): void {
  current = feedback;
}

export function feedback(): Feedback {
  return current;
}
