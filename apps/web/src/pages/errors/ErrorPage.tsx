import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

const hints = { 403: 'page.forbidden_hint', 404: 'page.not_found_hint', 500: 'page.server_error_hint' } as const;

/** /403, /404 and /500: outside the route guard, so they render for anyone. */
export function ErrorPage({ status }: { status: 403 | 404 | 500 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={t(`page.${status}`)}
      subTitle={t(hints[status])}
      extra={
        <Button type="primary" onClick={() => navigate('/')} data-testid="back-home">
          {t('common.back_home')}
        </Button>
      }
    />
  );
}
