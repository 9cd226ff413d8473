import { Alert, Form, Input, Modal, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isTemplateRoot, translate, type CmsTemplateId, type TamperRuleInput } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { tamperKey, fetchTemplates } from './api.ts';
import { OpTags } from './OpTags.tsx';
import { PathText } from './StateTag.tsx';

/**
 * The CMS template add form: choose the CMS and the site root, see the rules the template makes
 * (from the console, in the page's language), add them all at once.
 */
export function TemplateModal({ saving, onAdd, onClose }: { saving: boolean; onAdd: (rules: TamperRuleInput[]) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [id, setId] = useState<CmsTemplateId | undefined>(undefined);
  const [root, setRoot] = useState('');
  const [tried, setTried] = useState(false);
  const rootOk = isTemplateRoot(root);
  const templates = useQuery({ queryKey: [...tamperKey, 'templates', lang], queryFn: () => fetchTemplates() });
  const preview = useQuery({
    queryKey: [...tamperKey, 'templates', lang, id, root.trim()],
    queryFn: () => fetchTemplates({ id: id!, root: root.trim() }),
    enabled: id !== undefined && rootOk,
    placeholderData: keepPreviousData,
  });
  const rules = id !== undefined && rootOk ? (preview.data?.rules ?? []) : [];
  const chosen = templates.data?.list.find((tpl) => tpl.id === id);
  const rootError = (tried || root !== '') && !rootOk ? translate(lang, root.trim() === '' ? 'tamper_path_required' : 'tamper_template_root_invalid') : undefined;
  const cmsError = tried && id === undefined ? t('tamper.template.choose') : undefined;

  const columns: TableColumnsType<TamperRuleInput> = [
    { key: 'path', title: t('tamper.rule.path'), dataIndex: 'path', width: 320, render: (v: string) => <PathText path={v} /> },
    { key: 'sub_path', title: t('tamper.rule.sub_path'), dataIndex: 'sub_path', width: 90 },
    { key: 'level', title: t('tamper.rule.level'), dataIndex: 'level', width: 70 },
    { key: 'ops', title: t('tamper.rule.ops'), dataIndex: 'ops', width: 220, render: (ops: TamperRuleInput['ops']) => <OpTags ops={ops ?? []} /> },
    { key: 'remark', title: t('tamper.rule.remark'), dataIndex: 'remark' },
  ];

  const add = () => {
    setTried(true);
    if (id === undefined || !rootOk || rules.length === 0) return;
    onAdd(rules);
  };

  return (
    <Modal
      open
      title={t('tamper.template.title')}
      okText={t('tamper.template.add_all', { count: rules.length })}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: tried && rules.length === 0, ...testId('tamper-template-add') }}
      cancelButtonProps={testId('tamper-template-cancel')}
      onOk={add}
      onCancel={onClose}
      mask={{ closable: false }}
      width={960}
      destroyOnHidden
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="info" showIcon title={t('tamper.template.intro')} />
        <Form layout="vertical" data-testid="tamper-template-form">
          <Space align="start" size="large" wrap>
            <Form.Item label={t('tamper.template.cms')} required validateStatus={cmsError ? 'error' : undefined} help={cmsError}>
              <Select<CmsTemplateId>
                style={{ width: 240 }}
                value={id}
                placeholder={t('tamper.template.cms_placeholder')}
                loading={templates.isFetching}
                onChange={setId}
                options={(templates.data?.list ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name, 'data-testid': `tamper-template-${tpl.id}` }))}
                data-testid="tamper-template-cms"
              />
            </Form.Item>
            <Form.Item
              label={t('tamper.template.root')}
              required
              validateStatus={rootError ? 'error' : undefined}
              help={rootError ? <span data-testid="tamper-template-error-root">{rootError}</span> : t('tamper.template.root_hint')}
            >
              <Input style={{ width: 420 }} value={root} placeholder={t('tamper.template.root_placeholder')} onChange={(e) => setRoot(e.target.value)} data-testid="tamper-template-root" />
            </Form.Item>
          </Space>
        </Form>
        {chosen && <Typography.Text type="secondary">{t('tamper.template.writable', { dirs: chosen.writable.join(t('tamper.list_separator')) })}</Typography.Text>}
        <Typography.Title level={5} style={{ margin: 0 }}>{t('tamper.template.preview')}</Typography.Title>
        {rules.length === 0 ? (
          <Typography.Text type="secondary">{t('tamper.template.preview_empty')}</Typography.Text>
        ) : (
          <Table<TamperRuleInput>
            size="small"
            rowKey={(r) => `${r.path} ${r.sub_path} ${r.level} ${(r.ops ?? []).join('')}`}
            columns={columns}
            dataSource={rules}
            pagination={false}
            data-testid="tamper-template-preview"
          />
        )}
      </Space>
    </Modal>
  );
}
