import { Alert, Form, Input, Modal, Select } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { areaName, commonAreaInputSchema, commonAreaMembersMax, commonAreaNameMax, searchAreas, type CommonArea, type FirewallChange } from '@rampart/contracts';
import { errorField, isApiError } from '../../api/errors.ts';
import { errorProps, withoutError, type FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { testId } from '../../utils/testId.ts';
import { schemaErrors } from '../firewall/forms.ts';
import { saveArea } from './trustApi.ts';

/** How many countries and provinces the picker offers for one search. */
const choices = 50;

/** Add or edit a common area: a unique name, at least one country or province, a remark. */
export function CommonAreaModal({ area, onSaved, onClose }: {
  /** The area being edited; null for a new one. */
  area: CommonArea | null;
  onSaved: (change: FirewallChange) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [name, setName] = useState(area?.name ?? '');
  const [members, setMembers] = useState<string[]>(area?.members ?? []);
  const [remark, setRemark] = useState(area?.remark ?? '');
  const [search, setSearch] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const err = (key: string) => errorProps(errors, key, 'area');
  // An error on one member (members.3) shows on the picker.
  const membersError = Object.entries(errors).find(([key]) => key === 'members' || key.startsWith('members.'))?.[1];

  const save = useMutation({
    mutationFn: saveArea,
    onSuccess: (change) => {
      onSaved(change);
      onClose();
    },
    onError: (e) => {
      const field = errorField(e);
      if (field && isApiError(e)) setErrors({ [field.startsWith('members') ? 'members' : field]: e.message });
    },
  });
  const submit = () => {
    const parsed = commonAreaInputSchema.safeParse({ ...(area ? { id: area.id } : {}), name, members, remark });
    if (!parsed.success) {
      const found = schemaErrors(parsed.error.issues, lang, { max: commonAreaMembersMax });
      setErrors(membersErrorFirst(found));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  const matches = searchAreas(search, lang, choices);
  const options = [
    ...members.filter((code) => !matches.some((m) => m.code === code)).map((code) => ({ value: code, label: areaName(code, lang) })),
    ...matches.map((m) => ({ value: m.code, label: `${m.name} (${m.code})`, 'data-testid': `area-member-${m.code}` })),
  ];

  return (
    <Modal
      open
      title={t(area ? 'sys_areas.edit_title' : 'sys_areas.add_title')}
      okText={t('sys_areas.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, ...testId('area-save') }}
      cancelButtonProps={testId('area-cancel')}
      onOk={submit}
      onCancel={onClose}
      mask={{ closable: false }}
      width={600}
      destroyOnHidden
    >
      {area && area.rules > 0 && <Alert type="info" showIcon title={t('sys_areas.in_use_note', { count: area.rules })} style={{ marginBottom: 16 }} data-testid="area-in-use" />}
      <Form layout="vertical" data-testid="area-form">
        <Form.Item label={t('sys_areas.name')} required {...err('name')}>
          <Input
            value={name}
            maxLength={commonAreaNameMax + 8}
            placeholder={t('sys_areas.name_placeholder')}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((current) => withoutError(current, 'name'));
            }}
            data-testid="area-name"
          />
        </Form.Item>
        <Form.Item
          label={t('sys_areas.members')}
          required
          extra={membersError ? undefined : t('sys_areas.members_hint')}
          {...(membersError ? errorProps({ members: membersError }, 'members', 'area') : {})}
        >
          <Select
            mode="multiple"
            allowClear
            value={members}
            placeholder={t('sys_areas.members_placeholder')}
            showSearch={{ filterOption: false, onSearch: setSearch }}
            onChange={(codes: string[]) => {
              setMembers(codes);
              setSearch('');
              setErrors((current) => withoutError(current, 'members'));
            }}
            options={options}
            data-testid="area-members"
          />
        </Form.Item>
        <Form.Item label={t('sys_areas.remark')} {...err('remark')}>
          <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.target.value)} data-testid="area-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** `members.N` errors folded into `members`, so the picker shows them. */
function membersErrorFirst(errors: FieldErrors): FieldErrors {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const field = key.startsWith('members.') ? 'members' : key;
    if (!(field in out)) out[field] = message;
  }
  return out;
}
