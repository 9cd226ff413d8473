import type { CloudChange, CloudSettings, CloudStatus } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's cloud protection calls (GET/POST /cloud/…); shapes are the schemas of cloud.ts and cloud-api.ts. */

export const cloudKey = ['cloud'] as const;

/** A bundle can take a while to check and load into the kernel. */
const slow = { timeoutMs: 60_000 };

export const fetchCloudStatus = () => get<CloudStatus>('/cloud/status');
export const addKey = (name: string, public_key: string) => post<CloudChange>('/cloud/keys/add', { name, public_key });
export const deleteKeys = (ids: number[]) => post<CloudChange>('/cloud/keys/delete', { ids });
export const importBundle = (bundle: string) => post<CloudChange>('/cloud/feeds/import', { bundle }, slow);
export const addUrlFeed = (url: string, interval_minutes: number) => post<CloudChange>('/cloud/feeds/add_url', { url, interval_minutes }, slow);
export const updateFeed = (id: number) => post<CloudChange>('/cloud/feeds/update', { id }, slow);
export const setFeedsEnabled = (ids: number[], enabled: boolean) => post<CloudChange>('/cloud/feeds/enable', { ids, enabled });
export const deleteFeeds = (ids: number[]) => post<CloudChange>('/cloud/feeds/delete', { ids });
export const saveCloudSettings = (settings: CloudSettings) => post<CloudChange>('/cloud/settings', { settings });
