import type { Language, RoleId } from '@rampart/contracts';

const names: Record<Language, Record<RoleId, string>> = {
  'zh-CN': { admin: '管理员', technician: '技术员', auditor: '审计员', other: '其他' },
  'en-US': { admin: 'Administrator', technician: 'Technician', auditor: 'Auditor', other: 'Other' },
};

export function roleName(role: RoleId, lang: Language): string {
  return names[lang][role];
}
