import type { Texts } from '../types.ts';

/** Texts under `sys_reg.` (English); the Chinese texts below hold the same keys. */
export const systemRegEn = {
  title: 'Software registration',
  product_key: 'Product key',
  show_key: 'Show the product key',
  hide_key: 'Hide the product key',
  expires_at: 'Expiration',
  expired: 'Expired',
  days_left: '{{count}} days left',
  device_id: 'Device ID',
  product_id: 'Product ID',
  transfers: 'Transfers available',
  transfers_hint: 'Moving this licence to another server uses one',
  registered_at: 'Registered at',
  refresh: 'Refresh',
  renew: 'Register with another key',
  renew_title: 'Register with another product key',
  renew_hint: 'The admin account and its password stay as they are. A key bound to another server moves here only after you confirm, and uses one of its transfers.',
  renew_submit: 'Register',
  new_admin_title: 'Admin account created',
} as const;

export const systemRegZh: Texts<typeof systemRegEn> = {
  title: '软件注册',
  product_key: '产品密钥',
  show_key: '显示产品密钥',
  hide_key: '隐藏产品密钥',
  expires_at: '到期时间',
  expired: '已过期',
  days_left: '剩余 {{count}} 天',
  device_id: '设备 ID',
  product_id: '产品 ID',
  transfers: '可迁移次数',
  transfers_hint: '将授权迁移到其他服务器时消耗 1 次',
  registered_at: '注册时间',
  refresh: '刷新',
  renew: '使用其他密钥注册',
  renew_title: '使用其他产品密钥注册',
  renew_hint: '管理员账号及其密码保持不变。已绑定其他服务器的密钥需您确认后才会迁移到本机，并消耗 1 次迁移次数。',
  renew_submit: '注册',
  new_admin_title: '已创建管理员账号',
};
