import { Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';

/** The operator CLI command that prints a new admin password (run on the server). */
export const resetPasswordCommand = 'npx rampart admin reset-password';

export function ForgotPassword() {
  const { t } = useTranslation();
  const hint = (
    // A plain paragraph: Typography would add its code to the sign-in page for no visible difference here.
    <p style={{ maxWidth: 320, margin: 0 }} data-testid="forgot-hint">
      {t('login.forgot_hint', { command: resetPasswordCommand })}
    </p>
  );
  return (
    <Popover title={t('login.forgot_title')} content={hint} trigger="click">
      <Button type="link" size="small" style={{ padding: 0 }} data-testid="forgot-password">
        {t('login.forgot')}
      </Button>
    </Popover>
  );
}
