/** The parts of the world GeoJSON the map reads: each country's ISO code and its outline. */
export interface GeoJsonWorld {
  features: { properties: { iso_a2?: string }; geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] } }[];
}

/** A point per country for the map's lines: the middle of the bounding box of its largest outline. */
export function countryCenters(world: GeoJsonWorld): Map<string, [number, number]> {
  const centers = new Map<string, [number, number]>();
  for (const feature of world.features) {
    const code = feature.properties.iso_a2;
    if (!code || code.length !== 2) continue;
    const polygons = (feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates) as number[][][][];
    let best: [number, number] | null = null;
    let bestSize = -1;
    for (const polygon of polygons) {
      const ring = polygon[0] ?? [];
      const xs = ring.map((p) => p[0]!);
      const ys = ring.map((p) => p[1]!);
      const size = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
      if (size > bestSize) {
        bestSize = size;
        best = [(Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2];
      }
    }
    if (best) centers.set(code, best);
  }
  return centers;
}
