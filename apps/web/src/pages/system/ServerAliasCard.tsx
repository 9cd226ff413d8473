import { Button, Card, Flex, Form, Input } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverAliasSchema, type BasicView } from '@rampart/contracts';
import { errorField } from '../../api/errors.ts';
import { errorProps, issuesToErrors, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan, userInfoKey } from '../../session/useUserInfo.ts';
import { basicKey, saveBasic } from './basicApi.ts';

/** The server alias, shown in front of every page title (GET /info carries it; saving refreshes it). */
export function ServerAliasCard({ view }: { view: BasicView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('system', 'edit');
  const [alias, setAlias] = useState(view.server_alias);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: saveBasic,
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(basicKey, saved);
      // The title reads the alias from the user info.
      void queryClient.invalidateQueries({ queryKey: userInfoKey });
    },
    onError: (e) => {
      if (errorField(e)) setErrors({ server_alias: e.message });
    },
  });
  const submit = () => {
    const parsed = serverAliasSchema.safeParse(alias);
    if (!parsed.success) {
      setErrors({ server_alias: Object.values(issuesToErrors(parsed.error.issues, lang))[0] ?? '' });
      return;
    }
    setErrors({});
    save.mutate({ server_alias: parsed.data, temp_minutes: view.temp_minutes });
  };
  return (
    <Card title={t('sys_basic.alias.title')} data-testid="alias-card">
      <Form layout="vertical" style={{ maxWidth: 760 }} disabled={!canEdit} onFinish={submit}>
        <Form.Item label={t('sys_basic.alias.label')} extra={t('sys_basic.alias.hint')} {...errorProps(errors, 'server_alias', 'alias')}>
          <Flex gap={8}>
            <Input
              style={{ width: 320 }}
              value={alias}
              placeholder={t('sys_basic.alias.placeholder')}
              onChange={(e) => {
                setAlias(e.target.value);
                setErrors({});
              }}
              data-testid="alias-input"
            />
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="alias-save">
              {t('sys_basic.save')}
            </Button>
          </Flex>
        </Form.Item>
      </Form>
    </Card>
  );
}
