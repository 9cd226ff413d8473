import { storageKeys } from './keys.ts';

/** The attack map's view on the dynamic pages and the big screen. */
export type MapView = 'world' | 'china';

/**
 * The view last chosen in this browser. The default is the world in either language: a public
 * server is attacked from everywhere, and the world view still shows China's total.
 */
export function getStoredMapView(): MapView {
  try {
    return localStorage.getItem(storageKeys.dynamicMap) === 'china' ? 'china' : 'world';
  } catch {
    return 'world';
  }
}

export function storeMapView(view: MapView): void {
  try {
    localStorage.setItem(storageKeys.dynamicMap, view);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page only.
  }
}
