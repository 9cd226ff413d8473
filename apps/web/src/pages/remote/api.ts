import type { FirewallChange, RemoteAccess, RemoteBruteforce, RemoteView } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's remote-protection calls (GET/POST /remote/…). Shapes are the schemas of remote.ts and remote-api.ts. */

export const remoteKey = ['remote'] as const;

export const fetchRemote = () => get<RemoteView>('/remote/settings');
export const saveRemoteAccess = (access: RemoteAccess) => post<FirewallChange>('/remote/access', access);
export const saveRemoteBruteforce = (value: RemoteBruteforce) => post<{ ok: true }>('/remote/bruteforce', value);
