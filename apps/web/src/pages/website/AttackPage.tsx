import { Checkbox, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { attackTabKinds } from '@rampart/contracts';
import { Group, LinesField, SwitchField } from './controls.tsx';
import { SettingsTabPage } from './SettingsTab.tsx';

/** Attack: the attack classes (SQL injection has its own tab), file inclusion, and the headers inspected. */
export function AttackPage() {
  const { t } = useTranslation();
  return (
    <SettingsTabPage<'attack'>
      tab="attack"
      render={(kit) => (
        <>
          <Group kit={kit} name="kinds" title={t('web.attack.kinds')} hint={t('web.attack.kinds_hint')}>
            <Flex gap={24} wrap>
              {attackTabKinds.map((kind) => (
                <SwitchField key={kind} kit={kit} path={`kinds.${kind}`} label={t(`web.kind.${kind}`)} />
              ))}
            </Flex>
          </Group>
          <Group kit={kit} name="file_inclusion" title={t('web.attack.file_inclusion')} hint={t('web.attack.file_inclusion_hint')}>
            <Form.Item>
              <Flex gap={24}>
                {(['local', 'remote'] as const).map((where) => (
                  <Checkbox
                    key={where}
                    checked={kit.get(`file_inclusion.${where}`) === true}
                    disabled={kit.readOnly}
                    onChange={(e) => kit.set(`file_inclusion.${where}`, e.target.checked)}
                    data-testid={`web-attack-file_inclusion.${where}`}
                  >
                    {t(`web.attack.inclusion_${where}`)}
                  </Checkbox>
                ))}
              </Flex>
            </Form.Item>
          </Group>
          <Group kit={kit} name="headers" title={t('web.attack.headers')} hint={t('web.attack.headers_hint')}>
            <LinesField kit={kit} path="headers" label={t('web.attack.header_names')} placeholder={t('web.ph.header')} />
          </Group>
        </>
      )}
    />
  );
}
