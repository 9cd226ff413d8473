/**
 * `node geo-cache-main.ts '<GeoIpOptions & { cacheDir } as JSON>'`: writes the geo-IP cache and prints
 * prepareGeoCache's answer as one JSON line. The primary runs it as a child process (geo-areas.ts,
 * prepareGeoCacheApart) so the ~0.85 s parse's ~50 MiB of heap dies with the child instead of
 * staying in the long-lived primary's RSS (V8 rarely gives a grown old space back).
 */
import { prepareGeoCache } from './geo-areas.ts';

process.stdout.write(JSON.stringify(prepareGeoCache(JSON.parse(process.argv[2] ?? '{}'))) + '\n');
