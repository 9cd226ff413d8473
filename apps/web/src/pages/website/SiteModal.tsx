import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Input, InputNumber, Modal, Switch, Upload } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { websiteSiteInputSchema, type WebsiteDiscoveredSite, type WebsiteSiteInput, type WebsiteSiteView } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { readFileText, schemaErrors } from '../firewall/forms.ts';
import { linesOf, setPath } from './draftPath.ts';
import { originOnOwnListener } from './selfLoop.ts';
import { addServer, editServer } from './websiteApi.ts';

/** What the modal starts from: a stored site (edit), a discovered one (protect it), or nothing (add). */
export type SiteSource = { kind: 'edit'; site: WebsiteSiteView } | { kind: 'discovered'; site: WebsiteDiscoveredSite } | { kind: 'new' };

/** The modal's draft: the port may be empty, the key is typed ('' keeps a stored one), lists are typed text. */
interface SiteDraft {
  name: string;
  status: 'on' | 'off';
  running: boolean;
  listen: { address: string; port: number | null; tls: boolean }[];
  tls_cert: string;
  tls_key: string;
  upstreams: string;
  server_names: string;
  trusted_proxies: string;
}

const newListen = () => ({ address: '0.0.0.0', port: 80, tls: false });

function draftOf(source: SiteSource): SiteDraft {
  const empty: SiteDraft = { name: '', status: 'on', running: true, listen: [newListen()], tls_cert: '', tls_key: '', upstreams: '', server_names: '', trusted_proxies: '' };
  if (source.kind === 'new') return empty;
  if (source.kind === 'discovered') {
    // A discovered site: the gateway takes over its listeners and forwards to the suggested origin.
    const s = source.site;
    return { ...empty, name: s.server_names[0] ?? s.name, listen: s.listen.length ? s.listen : [newListen()], upstreams: s.upstream_hint, server_names: s.server_names.join('\n') };
  }
  const s = source.site;
  return {
    name: s.name,
    status: s.status,
    running: s.running,
    listen: s.listen,
    tls_cert: s.tls_cert,
    tls_key: '',
    upstreams: s.upstreams.join('\n'),
    server_names: s.server_names.join('\n'),
    trusted_proxies: s.trusted_proxies.join('\n'),
  };
}

/**
 * The typed draft → the body the console takes (website-api.ts). A blank key on a site that has one
 * keeps it (null); on a new site it is '' (no TLS), which the contract checks against the listeners.
 */
function inputOf(draft: SiteDraft, source: SiteSource): unknown {
  const keySet = source.kind === 'edit' && source.site.tls_key_set;
  return {
    ...(source.kind === 'edit' ? { id: source.site.id } : {}),
    name: draft.name,
    status: draft.status,
    running: draft.running,
    listen: draft.listen,
    server_names: linesOf(draft.server_names),
    upstreams: linesOf(draft.upstreams),
    tls_cert: draft.tls_cert,
    tls_key: draft.tls_key.trim() === '' && keySet ? null : draft.tls_key,
    trusted_proxies: linesOf(draft.trusted_proxies),
  };
}

/** An error on an entry of a list box (`upstreams.1`) shows on the box. */
const boxOf = (field: string) => field.replace(/^(upstreams|server_names|trusted_proxies)\..*$/, '$1');

/** Adds or edits a protected site: listeners, TLS certificate and key (PEM text or a file), origins, host names. */
export function SiteModal({ source, onClose, onSaved }: { source: SiteSource; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [draft, setDraft] = useState(() => draftOf(source));
  const [errors, setErrors] = useState<FieldErrors>({});
  const err = (path: string) => errorProps(errors, path, 'web-site');
  const set = (path: string, value: unknown) => {
    setDraft((d) => setPath(d, path, value));
    setErrors((e) => withoutError(e, path));
  };
  const anyTls = draft.listen.some((l) => l.tls);
  // A found site that serves its own pages: the web server must leave the listener the gateway takes (discovered-sites.ts).
  const move = source.kind === 'discovered' && source.site.origin_move ? { ...source.site.origin_move, server: source.site.server, source: source.site.source } : null;
  const keySet = source.kind === 'edit' && source.site.tls_key_set;

  const save = useMutation({
    mutationFn: (input: WebsiteSiteInput) => (input.id === undefined ? addServer(input) : editServer(input)),
    onSuccess: () => {
      onSaved();
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [boxOf(field)]: e.message });
    },
  });
  const submit = () => {
    const parsed = websiteSiteInputSchema.safeParse(inputOf(draft, source));
    if (!parsed.success) {
      const found = schemaErrors(parsed.error.issues, lang);
      setErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [boxOf(k), v])));
      return;
    }
    const loop = originOnOwnListener(parsed.data);
    if (loop) {
      setErrors({ upstreams: t('web.server.upstream_loop', { origin: loop }) });
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  const pem = (field: 'tls_cert' | 'tls_key', placeholder: string) => (
    <Form.Item
      style={{ flex: 1 }}
      label={t(`web.server.${field}`)}
      {...err(field)}
      extra={
        <Upload
          accept=".pem,.crt,.cer,.key,.txt"
          showUploadList={false}
          beforeUpload={(file) => {
            void readFileText(file).then((text) => set(field, text));
            return false;
          }}
        >
          <Button size="small" style={{ marginTop: 4 }} icon={<UploadOutlined />} data-testid={`web-site-${field}-upload`}>
            {t('web.server.upload')}
          </Button>
        </Upload>
      }
    >
      <Input.TextArea rows={3} value={draft[field]} placeholder={placeholder} onChange={(e) => set(field, e.target.value)} data-testid={`web-site-${field}`} />
    </Form.Item>
  );
  const lines = (field: 'upstreams' | 'server_names' | 'trusted_proxies', placeholder: string) => (
    <Form.Item label={t(`web.server.${field}`)} {...err(field)} extra={errors[field] ? undefined : t(`web.server.${field}_hint`)}>
      <Input.TextArea rows={2} value={draft[field]} placeholder={placeholder} onChange={(e) => set(field, e.target.value)} data-testid={`web-site-${field}`} />
    </Form.Item>
  );

  return (
    <Modal
      open
      width={720}
      title={t(source.kind === 'edit' ? 'web.server.edit_title' : 'web.server.add_title')}
      okText={t('web.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, ...testId('web-site-save') }}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      {move && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="web-site-move-first"
          title={t(move.tls ? 'web.server.move_first_tls' : 'web.server.move_first', { source: move.source, server: t(`web.server.software.${move.server}`), from: move.from, to: move.to })}
        />
      )}
      <Form layout="vertical" data-testid="web-site-form">
        <Flex gap={16} align="start">
          <Form.Item style={{ flex: 1 }} label={t('web.server.name')} {...err('name')}>
            <Input value={draft.name} maxLength={200} onChange={(e) => set('name', e.target.value)} data-testid="web-site-name" />
          </Form.Item>
          <Form.Item label={t('web.server.status')} {...err('status')}>
            <Switch checked={draft.status === 'on'} checkedChildren={t('common.on')} unCheckedChildren={t('common.off')} onChange={(on) => set('status', on ? 'on' : 'off')} data-testid="web-site-status" />
          </Form.Item>
          <Form.Item label={t('web.server.running')} {...err('running')}>
            <Switch checked={draft.running} onChange={(on) => set('running', on)} data-testid="web-site-running" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('web.server.listen')} {...err('listen')}>
          <Flex vertical gap={8}>
            {draft.listen.map((l, i) => (
              <Flex key={i} gap={8} align="start" wrap data-testid={`web-site-listen-${i}`}>
                <Form.Item style={{ marginBottom: 0, width: 220 }} {...err(`listen.${i}.address`)}>
                  <Input value={l.address} addonBefore={t('web.server.address')} onChange={(e) => set(`listen.${i}.address`, e.target.value)} data-testid={`web-site-listen-${i}-address`} />
                </Form.Item>
                <Form.Item style={{ marginBottom: 0 }} {...err(`listen.${i}.port`)}>
                  <InputNumber<number> precision={0} value={l.port} prefix={t('web.server.port')} onChange={(v) => set(`listen.${i}.port`, v)} data-testid={`web-site-listen-${i}-port`} />
                </Form.Item>
                <Form.Item style={{ marginBottom: 0 }}>
                  <Switch checked={l.tls} checkedChildren={t('web.server.tls')} unCheckedChildren={t('web.server.plain')} onChange={(on) => set(`listen.${i}.tls`, on)} data-testid={`web-site-listen-${i}-tls`} />
                </Form.Item>
                {draft.listen.length > 1 && (
                  <Button icon={<DeleteOutlined />} aria-label={t('web.delete')} onClick={() => set('listen', draft.listen.filter((_x, j) => j !== i))} data-testid={`web-site-listen-${i}-remove`} />
                )}
              </Flex>
            ))}
            <Button icon={<PlusOutlined />} style={{ alignSelf: 'start' }} onClick={() => set('listen', [...draft.listen, newListen()])} data-testid="web-site-listen-add">
              {t('web.server.listen_add')}
            </Button>
          </Flex>
        </Form.Item>
        {anyTls && (
          <Flex gap={8}>
            {pem('tls_cert', t('web.ph.cert'))}
            {pem('tls_key', keySet ? t('web.server.pem_keep') : t('web.ph.key'))}
          </Flex>
        )}
        {lines('upstreams', t('web.ph.upstreams'))}
        {lines('server_names', t('web.ph.domains'))}
        {lines('trusted_proxies', t('web.ph.proxies'))}
      </Form>
    </Modal>
  );
}
