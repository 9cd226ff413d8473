/** Server messages of the common areas (`area_`) and the super whitelist (`trust_`) tabs. */
const zh = {
  area_name_required: '请输入区域名称',
  area_name_too_long: '区域名称不能超过 32 个字符',
  area_name_invalid: '区域名称不能含有控制字符',
  area_name_taken: '已有同名的常用区域',
  area_members_required: '请至少选择一个国家或省份',
  area_too_many_members: '一个常用区域最多包含 300 个国家或省份',
  area_not_found: '常用区域不存在，可能已被删除',
  area_common_missing: '规则引用的常用区域不存在，可能已被删除',
  area_select_items: '请选择要删除的常用区域',
  area_in_use: '该常用区域正被 {rules} 条规则（防火墙或进程防护）使用，请先修改或删除这些规则',
  area_deleted: '已删除 {count} 个常用区域',
  trust_address_too_broad: '超级白名单不能包含所有地址（* 或 /0）',
  trust_validity_required: '请选择有效期',
  trust_validity_invalid: '有效期为 1 到 3650 天，或永久',
  trust_added: '已添加 {added} 个 IP（{skipped} 个已在名单中）',
  trust_deleted: '已删除 {count} 个 IP',
  trust_renewed: '已续期',
  trust_not_found: '该 IP 不在超级白名单中，可能已过期或被删除',
} as const;

const en: Record<keyof typeof zh, string> = {
  area_name_required: 'Enter the area name',
  area_name_too_long: 'Area names are at most 32 characters',
  area_name_invalid: 'Area names cannot contain control characters',
  area_name_taken: 'A common area with this name already exists',
  area_members_required: 'Choose at least one country or province',
  area_too_many_members: 'A common area holds at most 300 countries or provinces',
  area_not_found: 'No such common area: it may have been deleted',
  area_common_missing: 'A common area the rule uses does not exist: it may have been deleted',
  area_select_items: 'Choose the common areas to delete',
  area_in_use: 'This common area is used by {rules} rule(s) (firewall or process protection): change or delete them first',
  area_deleted: 'Deleted {count} common area(s)',
  trust_address_too_broad: 'The super whitelist cannot hold every address (* or /0)',
  trust_validity_required: 'Choose the validity',
  trust_validity_invalid: 'The validity is 1 to 3650 days, or permanent',
  trust_added: 'Added {added} IP(s) ({skipped} already listed)',
  trust_deleted: 'Deleted {count} IP(s)',
  trust_renewed: 'Renewed',
  trust_not_found: 'This IP is not in the super whitelist: it may have expired or been deleted',
};

export const commonAreasMessages = { zh, en };
