/** Server messages of situational awareness (`dynamic_`): the dashboard's settings. */
const zh = {
  dynamic_sound_invalid: '攻击提示音须为开启或关闭',
  dynamic_location_invalid: '服务器位置须为两位国家代码（如 CN、US），或留空以自动识别',
} as const;

const en: Record<keyof typeof zh, string> = {
  dynamic_sound_invalid: 'The attack sound must be on or off',
  dynamic_location_invalid: 'The server location must be a two-letter country code (such as CN or US), or empty to detect it',
};

export const dynamicMessages = { zh, en };
