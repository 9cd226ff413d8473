import { describe, expect, it } from 'vitest';
import { areaCodeSchema, areaName, chinaProvinceCodes, countryCodes, isAreaCode, searchAreas } from '@rampart/contracts';
import { ip2regionProvinceCodes } from '../src/index.ts';

describe('area catalogue', () => {
  it('lists every ISO 3166-1 country once, and the 34 provincial divisions of China', () => {
    expect(new Set(countryCodes).size).toBe(countryCodes.length);
    expect(countryCodes.length).toBe(250); // 249 ISO codes + XK (Kosovo)
    for (const code of ['CN', 'US', 'JP', 'HK', 'MO', 'TW', 'AQ', 'SS', 'XK']) expect(countryCodes).toContain(code);
    expect(chinaProvinceCodes).toHaveLength(34);
    for (const code of ['CN-BJ', 'CN-SH', 'CN-GD', 'CN-NM', 'CN-XJ', 'CN-HK', 'CN-MO', 'CN-TW']) expect(chinaProvinceCodes).toContain(code);
  });

  it('schema accepts known codes and refuses anything else with area_invalid', () => {
    expect(areaCodeSchema.parse('CN-GD')).toBe('CN-GD');
    expect(areaCodeSchema.parse('DE')).toBe('DE');
    for (const bad of ['ZZ', 'cn', 'CN-XX', 'CN-', 'USA', '', 'EU']) {
      const result = areaCodeSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('area_invalid');
    }
    expect(isAreaCode('CN-HK')).toBe(true);
    expect(isAreaCode('HK')).toBe(true);
    expect(isAreaCode('QQ')).toBe(false);
  });

  it('names areas in both languages', () => {
    expect(areaName('CN-GD', 'zh-CN')).toBe('广东省');
    expect(areaName('CN-GD', 'en-US')).toBe('Guangdong');
    expect(areaName('CN-NM', 'zh-CN')).toBe('内蒙古自治区');
    expect(areaName('CN-HK', 'en-US')).toBe('Hong Kong');
    expect(areaName('JP', 'zh-CN')).toBe('日本');
    expect(areaName('JP', 'en-US')).toBe('Japan');
    expect(areaName('DE', 'en-US')).toBe('Germany');
    expect(areaName('TW', 'zh-CN')).toBe('中国台湾');
    expect(areaName('QQ', 'en-US')).toBe('QQ');
    // Every code has a real name in both languages, not the code echoed back.
    for (const code of [...countryCodes, ...chinaProvinceCodes]) {
      expect(areaName(code, 'zh-CN'), code).not.toBe(code);
      expect(areaName(code, 'en-US'), code).not.toBe(code);
    }
  });

  it('searches codes, Chinese and English names case-insensitively, best match first', () => {
    const codes = (keywords: string, limit?: number) => searchAreas(keywords, 'en-US', limit).map((a) => a.code);
    expect(codes('jp')[0]).toBe('JP');
    expect(codes('japan')).toEqual(['JP']);
    expect(codes('日本')).toEqual(['JP']);
    expect(codes('广东')).toEqual(['CN-GD']);
    expect(codes('广东省')).toEqual(['CN-GD']);
    expect(codes('GUANGDONG')).toEqual(['CN-GD']);
    expect(codes('内蒙古')).toEqual(['CN-NM']);
    expect(codes('cn-gd')).toEqual(['CN-GD']);
    expect(codes('香港')).toEqual(expect.arrayContaining(['HK', 'CN-HK']));
    expect(codes('germ')).toContain('DE');
    expect(codes('no such place')).toEqual([]);
    expect(codes('', 5)).toHaveLength(5);
    expect(codes('a', 3)).toHaveLength(3);
    expect(searchAreas('广东', 'zh-CN')).toEqual([{ code: 'CN-GD', kind: 'province', name: '广东省' }]);
    expect(searchAreas('japan', 'zh-CN')).toEqual([{ code: 'JP', kind: 'country', name: '日本' }]);
  });

  it('maps every province name ip2region uses onto a catalogue province, each once', () => {
    const codes = Object.values(ip2regionProvinceCodes);
    expect(new Set(codes).size).toBe(34);
    expect([...codes].sort()).toEqual([...chinaProvinceCodes].sort());
    expect(ip2regionProvinceCodes['广东省']).toBe('CN-GD');
    expect(ip2regionProvinceCodes['内蒙古']).toBe('CN-NM');
    expect(ip2regionProvinceCodes['香港']).toBe('CN-HK');
  });
});
