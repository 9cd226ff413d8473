import { App, Checkbox, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { spiderNames, type WebsiteLists } from '@rampart/contracts';
import { testId } from '../../utils/testId.ts';
import { errorProps } from '../../components/forms/fieldErrors.tsx';
import { AreaField } from './AreaField.tsx';
import { Group, LinesField, SelectField, SwitchField } from './controls.tsx';
import { entriesBlocking, useOwnAddress } from './ownAddress.ts';
import { SettingsTabPage, type ConfirmSave, type FormKit } from './SettingsTab.tsx';

type Kit = FormKit<WebsiteLists>;

/** A list of URL parts, user agents or referers. */
function TextList({ kit, name }: { kit: Kit; name: 'url_white' | 'url_black' | 'ua_white' | 'ua_black' | 'referer_white' | 'referer_black' }) {
  const { t } = useTranslation();
  const kind = name.split('_')[0] as 'url' | 'ua' | 'referer';
  return (
    <Group kit={kit} name={name} title={t(`web.lists.${name}`)} hint={t(`web.lists.hint_${kind}`)} enabled={`${name}.enabled`}>
      <LinesField kit={kit} path={`${name}.entries`} label={t(`web.lists.entries_${kind}`)} placeholder={t(`web.ph.${kind}`)} />
    </Group>
  );
}

/** Addresses and areas. */
function IpAreaList({ kit, name }: { kit: Kit; name: 'ip_white' | 'ip_black' | 'malicious' }) {
  const { t } = useTranslation();
  return (
    <Group kit={kit} name={name} title={t(`web.lists.${name}`)} hint={t(`web.lists.hint_${name}`)} enabled={`${name}.enabled`}>
      <LinesField kit={kit} path={`${name}.ips`} label={t('web.lists.ips')} hint={t('web.hint.addresses')} placeholder={t('web.ph.ips')} />
      <AreaField kit={kit} path={`${name}.areas`} label={t(name === 'malicious' ? 'web.lists.malicious_areas' : 'web.lists.areas')} />
    </Group>
  );
}

/**
 * The lists, in the order the gateway reads them (spec): spider whitelist, IP, URL, UA and referer
 * whitelists, then the IP, URL, UA and referer blacklists, then the malicious-IP blacklist.
 */
export function ListsPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const ownAddress = useOwnAddress();
  // A blacklist that covers the administrator's own address: said before saving, saved only if confirmed.
  const confirmSave: ConfirmSave<'lists'> = (input, proceed) => {
    const blocking = ownAddress ? entriesBlocking(input, ownAddress) : [];
    if (blocking.length === 0) return proceed();
    modal.confirm({
      title: t('web.lists.own_ip_title'),
      content: <span data-testid="web-lists-own-ip">{t('web.lists.own_ip', { ip: ownAddress, entries: blocking.join(', ') })}</span>,
      okText: t('web.lists.own_ip_ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('web-lists-own-ip-confirm') },
      cancelButtonProps: testId('web-lists-own-ip-cancel'),
      onOk: proceed,
    });
  };
  return (
    <SettingsTabPage<'lists'>
      tab="lists"
      confirmSave={confirmSave}
      render={(kit) => {
        const lists = kit as Kit;
        return (
          <>
            <Group kit={kit} name="spider" title={t('web.lists.spider')} hint={t('web.lists.hint_spider')} enabled="spider.enabled">
              <Form.Item label={t('web.lists.spiders')} {...errorProps(kit.errors, 'spider.spiders', 'web-lists')}>
                <Checkbox.Group
                  value={lists.draft.spider.spiders}
                  disabled={kit.readOnly}
                  onChange={(values) => kit.set('spider.spiders', spiderNames.filter((s) => values.includes(s)))}
                  options={spiderNames.map((s) => ({ value: s, label: <span data-testid={`web-lists-spider-${s}`}>{t(`web.spider.${s}`)}</span> }))}
                />
              </Form.Item>
              <LinesField kit={kit} path="spider.ips" label={t('web.lists.spider_ips')} hint={t('web.hint.addresses')} placeholder={t('web.ph.ips')} />
              <Flex gap={24} wrap>
                <SwitchField kit={kit} path="spider.fake_check" label={t('web.lists.fake_check')} />
                <SelectField kit={kit} path="spider.fake_mode" label={t('web.lists.fake_mode')} values={['loose', 'strict']} labelOf={(v) => t(`web.fake_mode.${v}`)} />
              </Flex>
            </Group>
            <IpAreaList kit={lists} name="ip_white" />
            <TextList kit={lists} name="url_white" />
            <TextList kit={lists} name="ua_white" />
            <TextList kit={lists} name="referer_white" />
            <IpAreaList kit={lists} name="ip_black" />
            <TextList kit={lists} name="url_black" />
            <TextList kit={lists} name="ua_black" />
            <TextList kit={lists} name="referer_black" />
            <IpAreaList kit={lists} name="malicious" />
          </>
        );
      }}
    />
  );
}
