import {
  ApartmentOutlined, AppstoreOutlined, AuditOutlined, BugOutlined, CloudOutlined, DesktopOutlined,
  FileProtectOutlined, FundOutlined, GlobalOutlined, HomeOutlined, ProfileOutlined, SafetyOutlined,
  SettingOutlined, UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** The icons named in the route table (contracts/routes.ts), imported one by one to keep the bundle small. */
const icons: Record<string, ComponentType> = {
  ApartmentOutlined, AuditOutlined, BugOutlined, CloudOutlined, DesktopOutlined, FileProtectOutlined,
  FundOutlined, GlobalOutlined, HomeOutlined, ProfileOutlined, SafetyOutlined, SettingOutlined, UserOutlined,
};

export function SectionIcon({ name }: { name: string }) {
  const Icon = icons[name] ?? AppstoreOutlined;
  return <Icon />;
}
