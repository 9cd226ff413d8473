/** Server messages of the configuration backup: export, import, server backups, restore. */
const zh = {
  cfg_empty: '请选择要导入的配置文件',
  cfg_not_json: '文件无法读取：不是有效的配置文件（不是 JSON），配置未作任何更改',
  cfg_foreign: '这不是 Rampart 的配置文件，配置未作任何更改',
  cfg_newer_format: '该配置文件的格式版本（{version}）比本软件支持的版本（{supported}）新，请先升级软件，配置未作任何更改',
  cfg_damaged: '配置文件已损坏（文件头不完整），配置未作任何更改',
  cfg_checksum_mismatch: '配置文件校验失败：文件已损坏或被修改，配置未作任何更改',
  cfg_invalid_item: '配置文件中有无效内容（{where}）：{reason}。配置未作任何更改',
  cfg_busy: '正在执行中，请稍候',
  cfg_backup_not_found: '备份文件不存在',
  cfg_backup_made: '备份成功',
  cfg_backup_deleted: '备份已删除',
  cfg_uploaded: '配置文件已上传到服务器备份',
  cfg_restored: '配置已恢复',
  cfg_restored_probation: '配置已恢复，但新的防火墙规则会阻断您当前的地址（{ip}）：请在 {seconds} 秒内确认保留，否则防火墙部分将自动回滚',
  cfg_restored_secrets: '配置已恢复；有 {count} 项密码或密钥来自其他机器，无法在本机解密，请重新填写',
  cfg_no_undo: '没有可撤销的恢复操作',
} as const;

const en: Record<keyof typeof zh, string> = {
  cfg_empty: 'Choose a configuration file to import',
  cfg_not_json: 'The file cannot be read: it is not a configuration file (not JSON). Nothing was changed',
  cfg_foreign: 'This is not a Rampart configuration file. Nothing was changed',
  cfg_newer_format: 'This configuration file has format version {version}, newer than this software reads ({supported}): upgrade first. Nothing was changed',
  cfg_damaged: 'The configuration file is damaged (its header is incomplete). Nothing was changed',
  cfg_checksum_mismatch: 'The configuration file fails its checksum: it is damaged or was edited. Nothing was changed',
  cfg_invalid_item: 'The configuration file has an invalid entry ({where}): {reason}. Nothing was changed',
  cfg_busy: 'Execution in progress, please wait',
  cfg_backup_not_found: 'The backup does not exist',
  cfg_backup_made: 'Backup made',
  cfg_backup_deleted: 'Backup deleted',
  cfg_uploaded: 'The configuration file is stored as a server backup',
  cfg_restored: 'Configuration restored',
  cfg_restored_probation: 'Configuration restored, but the restored firewall rules block your address ({ip}): keep them within {seconds} seconds or the firewall part is rolled back',
  cfg_restored_secrets: 'Configuration restored; {count} passwords or keys come from another machine and cannot be opened here: enter them again',
  cfg_no_undo: 'There is no restore to undo',
} as const;

export const configBackupMessages = { zh, en };
