import { restartPollIntervalMs, restartPollTries } from '@rampart/contracts';

/** Does the panel answer at this websocket address, and let this session in? */
export type Probe = (url: string, token: string | null) => Promise<boolean>;

/**
 * The probe is the new address's websocket with the session's token. Choice: the console's
 * content security policy lets the page open websockets anywhere but fetch only from its own
 * origin, and a new port is a new origin (no fetch, image or frame there); a websocket is also
 * not subject to CORS. Opening proves the new listener runs, this browser passes the gate there
 * (the entry cookie is host-wide) and the session is still good.
 */
export const websocketProbe: Probe = (url, token) =>
  new Promise((resolve) => {
    let socket: WebSocket;
    try {
      socket = token ? new WebSocket(url, [token]) : new WebSocket(url);
    } catch {
      resolve(false);
      return;
    }
    const done = (up: boolean) => {
      clearTimeout(timer);
      socket.onopen = socket.onerror = socket.onclose = null;
      try {
        socket.close();
      } catch {
        // already closed
      }
      resolve(up);
    };
    const timer = setTimeout(() => done(false), restartPollIntervalMs - 100);
    socket.onopen = () => done(true);
    socket.onerror = () => done(false);
    socket.onclose = () => done(false);
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the panel after a restart: up to 20 tries 1 s apart (spec, section 9). The first try
 * waits too, since the listener moves only after the save's answer has arrived.
 */
export async function waitForPanel(
  probeUrl: string,
  token: string | null,
  onTry: (tries: number) => void,
  probe: Probe = websocketProbe,
  isCancelled: () => boolean = () => false,
): Promise<boolean> {
  for (let tries = 1; tries <= restartPollTries; tries++) {
    await sleep(restartPollIntervalMs);
    if (isCancelled()) return false;
    onTry(tries);
    if (await probe(probeUrl, token)) return true;
  }
  return false;
}
