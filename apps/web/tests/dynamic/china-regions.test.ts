import { describe, expect, it } from 'vitest';
import { chinaProvinceCodes } from '@rampart/contracts';
import { chinaCenters, chinaMap } from '../../src/pages/dynamic/china-map-data.ts';
import { chinaCounts, chinaMapRegions, chinaProvinceOf, worldAreaOf, worldCounts } from '../../src/pages/dynamic/china-regions.ts';

describe('China map regions', () => {
  it('names every province code as a region of the shipped China map, each once, with a centre for its lines', () => {
    const regions = chinaMap.features.map((f) => f.properties.name);
    expect(Object.keys(chinaMapRegions).sort()).toEqual([...chinaProvinceCodes].sort());
    expect(Object.values(chinaMapRegions).sort()).toEqual([...regions].sort());
    for (const region of regions) expect(chinaCenters.get(region)).toHaveLength(2);
  });

  it('places provinces and the three regions DB-IP files as countries; the rest is outside or unplaced', () => {
    expect(chinaProvinceOf('CN-GD')).toBe('CN-GD');
    expect(chinaProvinceOf('HK')).toBe('CN-HK');
    expect(chinaProvinceOf('TW')).toBe('CN-TW');
    expect(chinaProvinceOf('CN')).toBe('china');
    for (const area of ['US', 'internal', '', 'cn-gd', 'CN-XX']) expect(chinaProvinceOf(area)).toBeNull();
    expect(chinaCounts([
      { area: 'CN-GD', count: 5 }, { area: 'US', count: 7 }, { area: 'HK', count: 2 }, { area: 'CN-HK', count: 1 },
      { area: 'CN', count: 4 }, { area: 'internal', count: 3 }, { area: 'CN-BJ', count: 9 },
    ])).toEqual({
      provinces: [{ code: 'CN-BJ', region: '北京', count: 9 }, { code: 'CN-GD', region: '广东', count: 5 }, { code: 'CN-HK', region: '香港', count: 3 }],
      unplaced: 4,
      outside: 10,
    });
  });

  it('sums provinces into their country for the world map, Hong Kong, Macao and Taiwan apart as the world map draws them', () => {
    expect(worldAreaOf('CN-GD')).toBe('CN');
    expect(worldAreaOf('CN-MO')).toBe('MO');
    expect(worldAreaOf('DE')).toBe('DE');
    expect(worldCounts([{ area: 'CN-GD', count: 5 }, { area: 'CN', count: 1 }, { area: 'CN-BJ', count: 2 }, { area: 'US', count: 3 }, { area: 'CN-TW', count: 1 }]))
      .toEqual([{ area: 'CN', count: 8 }, { area: 'US', count: 3 }, { area: 'TW', count: 1 }]);
  });
});
