import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Spin } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { websiteTabInputSchemas } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { schemaErrors } from '../firewall/forms.ts';
import { getPath, setPath } from './draftPath.ts';
import { WebsiteFrame } from './WebsiteFrame.tsx';
import { fetchTab, saveTab, websiteKey, type SettingsTab, type WebsiteTabInputs, type WebsiteTabViews } from './websiteApi.ts';

/** What a tab's fields get: the draft, a setter by dotted path, the errors, and whether the user may edit. */
export interface FormKit<D> {
  tab: SettingsTab;
  draft: D;
  get: (path: string) => unknown;
  set: (path: string, value: unknown) => void;
  errors: FieldErrors;
  readOnly: boolean;
}

interface SettingsFormProps<K extends SettingsTab, D> {
  tab: K;
  loaded: WebsiteTabViews[K];
  /** The draft the form edits, from the view (default: the view itself). */
  toDraft: (view: WebsiteTabViews[K]) => D;
  /** The body posted, from the draft (default: the draft itself). */
  toInput: (draft: D) => WebsiteTabInputs[K];
  render: (kit: FormKit<D>) => ReactNode;
  confirmSave?: ConfirmSave<K>;
}

/**
 * Asked after the checks pass and before posting: call `proceed` to save (at once, or after the user
 * confirmed a warning); not calling it saves nothing.
 */
export type ConfirmSave<K extends SettingsTab> = (input: WebsiteTabInputs[K], proceed: () => void) => void;

function SettingsForm<K extends SettingsTab, D>({ tab, loaded, toDraft, toInput, render, confirmSave }: SettingsFormProps<K, D>) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const canEdit = useCan('website', 'edit');
  const [edited, setEdited] = useState<D | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // Bumped on reset, so boxes holding their own text (one entry per line) start again.
  const [generation, setGeneration] = useState(0);
  const draft = edited ?? toDraft(loaded);

  const save = useMutation({
    mutationFn: (body: WebsiteTabInputs[K]) => saveTab(tab, body),
    // The answer is the gateway's report, not the view: read the tab again, then show what is stored.
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [...websiteKey, tab] });
      setEdited(null);
      setErrors({});
    },
    onError: (e) => {
      // The console names the field it refused (HTTP 400 data.field): the message goes on that field.
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [field]: e.message });
    },
  });

  const kit: FormKit<D> = {
    tab,
    draft,
    get: (path) => getPath(draft, path),
    set: (path, value) => {
      // From the latest draft: two fields set in one event both stick.
      setEdited((current) => setPath(current ?? toDraft(loaded), path, value));
      setErrors((current) => withoutError(current, path));
    },
    errors,
    readOnly: !canEdit,
  };

  const onSave = () => {
    const parsed = websiteTabInputSchemas[tab].safeParse(toInput(draft));
    if (!parsed.success) {
      setErrors(schemaErrors(parsed.error.issues, lang));
      return;
    }
    setErrors({});
    const input = parsed.data as WebsiteTabInputs[K];
    if (confirmSave) confirmSave(input, () => save.mutate(input));
    else save.mutate(input);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} key={generation}>
      {render(kit)}
      {canEdit && (
        <Space>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={onSave} data-testid={`web-${tab}-save`}>
            {t('web.save')}
          </Button>
          <Button
            icon={<UndoOutlined />}
            disabled={edited === null || save.isPending}
            onClick={() => {
              setEdited(null);
              setErrors({});
              setGeneration((n) => n + 1);
            }}
            data-testid={`web-${tab}-reset`}
          >
            {t('web.reset')}
          </Button>
        </Space>
      )}
    </Space>
  );
}

const same = <T,>(value: T) => value;

/** A settings tab: loads GET /website/<tab>, edits it, checks it with the contract, posts it. */
export function SettingsTabPage<K extends SettingsTab, D = WebsiteTabViews[K]>(props: {
  tab: K;
  toDraft?: (view: WebsiteTabViews[K]) => D;
  toInput?: (draft: D) => WebsiteTabInputs[K];
  render: (kit: FormKit<D>) => ReactNode;
  confirmSave?: ConfirmSave<K>;
}) {
  const { t } = useTranslation();
  const { tab } = props;
  const view = useQuery({ queryKey: [...websiteKey, tab], queryFn: () => fetchTab(tab) });
  let body: ReactNode;
  if (view.data) {
    body = (
      <SettingsForm<K, D>
        tab={tab}
        loaded={view.data}
        toDraft={props.toDraft ?? (same as (v: WebsiteTabViews[K]) => D)}
        toInput={props.toInput ?? (same as (d: D) => WebsiteTabInputs[K])}
        render={props.render}
        confirmSave={props.confirmSave}
      />
    );
  } else if (view.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('web.load_failed')}
        action={<Button size="small" onClick={() => void view.refetch()} data-testid={`web-${tab}-retry`}>{t('common.retry')}</Button>}
        data-testid={`web-${tab}-load-failed`}
      />
    );
  } else {
    body = <Spin data-testid={`web-${tab}-loading`} />;
  }
  return <WebsiteFrame testId={`web-${tab}-page`}>{body}</WebsiteFrame>;
}
