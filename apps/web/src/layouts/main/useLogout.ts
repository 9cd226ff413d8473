import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { signOut } from '../../api/endpoints.ts';
import { clearToken } from '../../storage/token.ts';
import { testId } from '../../utils/testId.ts';

/** Signs out: optionally asks first, tells the server, then forgets the token whatever it answered. */
export function useLogout(): (ask?: boolean) => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const leave = async () => {
    try {
      await signOut();
    } catch {
      // The session ends on this side either way.
    }
    clearToken();
    queryClient.clear();
    await navigate('/user/login');
  };
  return (ask = true) => {
    if (!ask) {
      void leave();
      return;
    }
    modal.confirm({
      title: t('logout.confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('logout-confirm'),
      onOk: leave,
    });
  };
}
