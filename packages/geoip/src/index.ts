/** @rampart/geoip: address → country / Chinese province, and area codes → nftables ranges. */
export { openGeoIp } from './geoip.ts';
export type { AreaRanges, GeoIp, GeoIpCounts, GeoIpOptions, GeoLocation, GeoTableCounts } from './geoip.ts';
export { geoIpCredit, geoIpCreditUrl } from './credit.ts';
export { ip2regionProvinceCodes, provinceOfRegion } from './region-provinces.ts';
export { writeTestGeoData } from './test-data.ts';
export type { TestGeoData, TestGeoFiles, TestRange } from './test-data.ts';
