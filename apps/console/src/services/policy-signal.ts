/**
 * "The policy others enforce just changed": said by a route that changed something the website
 * gateway's policy carries but the website routes don't own (the module switch, system protection,
 * the super whitelist, the common areas), heard by the website link, which rewrites the gateway
 * file and reloads the gateway at once (app.ts). The periodic check (website/policy-sync.ts) still
 * runs every few seconds as the safety net for changes no route makes (a pause running out on the
 * agent's timer, an automatic super-whitelist entry).
 */

/**
 * How long a route waits for the push before it answers anyway. A reload starts gateway workers
 * (about a second; several on a busy machine, or while the gateway builds its geo-IP cache), and the
 * web client gives up after 6 s: past this the push goes on and the answer does not wait for it.
 */
export const policyAnswerWaitMs = 3000;

export class PolicySignal {
  private readonly listeners: (() => Promise<unknown>)[] = [];

  listen(listener: () => Promise<unknown>): void {
    this.listeners.push(listener);
  }

  /**
   * Starts every listener's push and waits until they are done or `waitMs` has passed, so that
   * usually the caller answers when the effect is there. A listener's failure is its own to report
   * (the change itself is already saved and the periodic check retries): it never fails the caller.
   */
  async changed(waitMs = policyAnswerWaitMs): Promise<void> {
    const pushed = Promise.all(this.listeners.map((listener) => listener().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    await Promise.race([pushed, cap]);
    clearTimeout(timer);
  }
}
