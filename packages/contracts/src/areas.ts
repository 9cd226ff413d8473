import { z } from 'zod';

/**
 * The area catalogue behind firewall area rules, web lists and area pickers: countries by
 * ISO 3166-1 alpha-2 code, and China's provincial divisions by ISO 3166-2 code.
 */

/** ISO 3166-1 alpha-2, every officially assigned code, plus XK (see below). */
export const countryCodes = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS',
  'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN',
  'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE',
  'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF',
  'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK', 'HM',
  'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM',
  'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC',
  'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK',
  'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA',
  'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG',
  'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS',
  'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO',
  'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI',
  'VN', 'VU', 'WF', 'WS',
  // Kosovo: user-assigned, not ISO, but DB-IP, CLDR and the EU use it; without it Kosovo's
  // addresses could not be picked at all.
  'XK',
  'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const;
export type CountryCode = (typeof countryCodes)[number];

interface ProvinceInfo {
  /** Full official name, as the Chinese administrative list writes it. */
  zh: string;
  /** The name people type and search for: 广东, 内蒙古, 香港. */
  zhShort: string;
  en: string;
}

/**
 * China's 34 provincial-level divisions, ISO 3166-2:CN codes. The list follows the Chinese
 * administrative list, so it includes Hong Kong, Macao and Taiwan (CN-HK, CN-MO, CN-TW); those
 * three are also selectable as areas through their own country codes HK, MO and TW.
 */
const provinces = {
  'CN-BJ': { zh: '北京市', zhShort: '北京', en: 'Beijing' },
  'CN-TJ': { zh: '天津市', zhShort: '天津', en: 'Tianjin' },
  'CN-HE': { zh: '河北省', zhShort: '河北', en: 'Hebei' },
  'CN-SX': { zh: '山西省', zhShort: '山西', en: 'Shanxi' },
  'CN-NM': { zh: '内蒙古自治区', zhShort: '内蒙古', en: 'Inner Mongolia' },
  'CN-LN': { zh: '辽宁省', zhShort: '辽宁', en: 'Liaoning' },
  'CN-JL': { zh: '吉林省', zhShort: '吉林', en: 'Jilin' },
  'CN-HL': { zh: '黑龙江省', zhShort: '黑龙江', en: 'Heilongjiang' },
  'CN-SH': { zh: '上海市', zhShort: '上海', en: 'Shanghai' },
  'CN-JS': { zh: '江苏省', zhShort: '江苏', en: 'Jiangsu' },
  'CN-ZJ': { zh: '浙江省', zhShort: '浙江', en: 'Zhejiang' },
  'CN-AH': { zh: '安徽省', zhShort: '安徽', en: 'Anhui' },
  'CN-FJ': { zh: '福建省', zhShort: '福建', en: 'Fujian' },
  'CN-JX': { zh: '江西省', zhShort: '江西', en: 'Jiangxi' },
  'CN-SD': { zh: '山东省', zhShort: '山东', en: 'Shandong' },
  'CN-HA': { zh: '河南省', zhShort: '河南', en: 'Henan' },
  'CN-HB': { zh: '湖北省', zhShort: '湖北', en: 'Hubei' },
  'CN-HN': { zh: '湖南省', zhShort: '湖南', en: 'Hunan' },
  'CN-GD': { zh: '广东省', zhShort: '广东', en: 'Guangdong' },
  'CN-GX': { zh: '广西壮族自治区', zhShort: '广西', en: 'Guangxi' },
  'CN-HI': { zh: '海南省', zhShort: '海南', en: 'Hainan' },
  'CN-CQ': { zh: '重庆市', zhShort: '重庆', en: 'Chongqing' },
  'CN-SC': { zh: '四川省', zhShort: '四川', en: 'Sichuan' },
  'CN-GZ': { zh: '贵州省', zhShort: '贵州', en: 'Guizhou' },
  'CN-YN': { zh: '云南省', zhShort: '云南', en: 'Yunnan' },
  'CN-XZ': { zh: '西藏自治区', zhShort: '西藏', en: 'Tibet' },
  'CN-SN': { zh: '陕西省', zhShort: '陕西', en: 'Shaanxi' },
  'CN-GS': { zh: '甘肃省', zhShort: '甘肃', en: 'Gansu' },
  'CN-QH': { zh: '青海省', zhShort: '青海', en: 'Qinghai' },
  'CN-NX': { zh: '宁夏回族自治区', zhShort: '宁夏', en: 'Ningxia' },
  'CN-XJ': { zh: '新疆维吾尔自治区', zhShort: '新疆', en: 'Xinjiang' },
  'CN-TW': { zh: '台湾省', zhShort: '台湾', en: 'Taiwan' },
  'CN-HK': { zh: '香港特别行政区', zhShort: '香港', en: 'Hong Kong' },
  'CN-MO': { zh: '澳门特别行政区', zhShort: '澳门', en: 'Macao' },
} as const satisfies Record<string, ProvinceInfo>;

export type ChinaProvinceCode = keyof typeof provinces;
export const chinaProvinceCodes = Object.keys(provinces) as ChinaProvinceCode[];

export type AreaCode = CountryCode | ChinaProvinceCode;
export type AreaLang = 'zh-CN' | 'en-US';

const countrySet: ReadonlySet<string> = new Set(countryCodes);
const provinceSet: ReadonlySet<string> = new Set(chinaProvinceCodes);

export function isCountryCode(value: string): value is CountryCode {
  return countrySet.has(value);
}

export function isChinaProvinceCode(value: string): value is ChinaProvinceCode {
  return provinceSet.has(value);
}

export function isAreaCode(value: string): value is AreaCode {
  return countrySet.has(value) || provinceSet.has(value);
}

export const areaCodeSchema = z.string().refine(isAreaCode, { message: 'area_invalid' });

/** CLDR says 台湾; the console presents it the way the Chinese administrative list does. */
const zhCountryOverrides: Partial<Record<CountryCode, string>> = { TW: '中国台湾' };

// Created on first use: building DisplayNames costs a little and most callers never name an area.
const displayNames = new Map<AreaLang, Intl.DisplayNames | null>();
function regionNames(lang: AreaLang): Intl.DisplayNames | null {
  if (!displayNames.has(lang)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
    } catch {
      names = null; // a runtime without Intl.DisplayNames: fall back to codes
    }
    displayNames.set(lang, names);
  }
  return displayNames.get(lang) ?? null;
}

function countryName(code: CountryCode, lang: AreaLang): string {
  if (lang === 'zh-CN') {
    const override = zhCountryOverrides[code];
    if (override) return override;
  }
  return regionNames(lang)?.of(code) ?? code;
}

/** The display name of an area; an unknown code is shown as itself. */
export function areaName(code: string, lang: AreaLang): string {
  if (isChinaProvinceCode(code)) return lang === 'zh-CN' ? provinces[code].zh : provinces[code].en;
  if (isCountryCode(code)) return countryName(code, lang);
  return code;
}

export interface AreaMatch {
  code: AreaCode;
  kind: 'country' | 'province';
  name: string;
}

function searchTexts(code: AreaCode): string[] {
  if (isChinaProvinceCode(code)) {
    const p: ProvinceInfo = provinces[code];
    return [p.zh, p.zhShort, p.en];
  }
  return [countryName(code, 'zh-CN'), countryName(code, 'en-US')];
}

/** Lower rank is better: exact code, then a name starting with the words, then a name containing them. */
function matchRank(code: AreaCode, needle: string): number | null {
  const lowerCode = code.toLowerCase();
  if (lowerCode === needle) return 0;
  const texts = searchTexts(code).map((t) => t.toLowerCase());
  if (texts.some((t) => t === needle)) return 1;
  if (lowerCode.startsWith(needle) || texts.some((t) => t.startsWith(needle))) return 2;
  if (lowerCode.includes(needle) || texts.some((t) => t.includes(needle))) return 3;
  return null;
}

const allAreaCodes: readonly AreaCode[] = [...countryCodes, ...chinaProvinceCodes];

/**
 * Areas whose code, Chinese name or English name contains the keywords (case-insensitive), best
 * matches first, named in `lang`. Empty keywords list the catalogue from the top.
 */
export function searchAreas(keywords: string, lang: AreaLang, limit = 20): AreaMatch[] {
  const needle = keywords.trim().toLowerCase();
  const ranked: { code: AreaCode; rank: number; order: number }[] = [];
  allAreaCodes.forEach((code, order) => {
    const rank = needle === '' ? 0 : matchRank(code, needle);
    if (rank !== null) ranked.push({ code, rank, order });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return ranked.slice(0, Math.max(0, limit)).map(({ code }) => ({
    code,
    kind: isChinaProvinceCode(code) ? 'province' : 'country',
    name: areaName(code, lang),
  }));
}
