import type { ChinaProvinceCode } from '@rampart/contracts';

/**
 * Province names exactly as ip2region's data writes them (its third field, under country 中国)
 * → ISO 3166-2:CN code. Municipalities, autonomous regions and the SARs appear without a suffix
 * (北京, 内蒙古, 香港), provinces with 省 (广东省, 台湾省).
 */
export const ip2regionProvinceCodes: Readonly<Record<string, ChinaProvinceCode>> = {
  北京: 'CN-BJ',
  天津: 'CN-TJ',
  河北省: 'CN-HE',
  山西省: 'CN-SX',
  内蒙古: 'CN-NM',
  辽宁省: 'CN-LN',
  吉林省: 'CN-JL',
  黑龙江省: 'CN-HL',
  上海: 'CN-SH',
  江苏省: 'CN-JS',
  浙江省: 'CN-ZJ',
  安徽省: 'CN-AH',
  福建省: 'CN-FJ',
  江西省: 'CN-JX',
  山东省: 'CN-SD',
  河南省: 'CN-HA',
  湖北省: 'CN-HB',
  湖南省: 'CN-HN',
  广东省: 'CN-GD',
  广西: 'CN-GX',
  海南省: 'CN-HI',
  重庆: 'CN-CQ',
  四川省: 'CN-SC',
  贵州省: 'CN-GZ',
  云南省: 'CN-YN',
  西藏: 'CN-XZ',
  陕西省: 'CN-SN',
  甘肃省: 'CN-GS',
  青海省: 'CN-QH',
  宁夏: 'CN-NX',
  新疆: 'CN-XJ',
  台湾省: 'CN-TW',
  香港: 'CN-HK',
  澳门: 'CN-MO',
};

/** Other spellings seen in other ip2region releases and in hand-made test data. */
const aliases: Readonly<Record<string, string>> = {
  北京市: '北京',
  天津市: '天津',
  上海市: '上海',
  重庆市: '重庆',
  内蒙古自治区: '内蒙古',
  广西壮族自治区: '广西',
  西藏自治区: '西藏',
  宁夏回族自治区: '宁夏',
  新疆维吾尔自治区: '新疆',
  台湾: '台湾省',
  香港特别行政区: '香港',
  澳门特别行政区: '澳门',
};

const filedAsCountry: ReadonlySet<string> = new Set(['香港', '澳门', '台湾', '台湾省']);

/**
 * The province code of one ip2region record (country, province fields), or null when it is not
 * a Chinese province. Hong Kong, Macao and Taiwan count whether ip2region files them under
 * 中国 or as countries of their own.
 */
export function provinceOfRegion(country: string, province: string): ChinaProvinceCode | null {
  if (country !== '中国' && !filedAsCountry.has(country)) return null;
  const name = country === '中国' ? province : country;
  return ip2regionProvinceCodes[name] ?? ip2regionProvinceCodes[aliases[name] ?? ''] ?? null;
}
