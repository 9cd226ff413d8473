/**
 * "The policy others enforce just changed": said by a route that changed something the website
 * gateway's policy carries but the website routes don't own (the module switch, system protection,
 * the super whitelist, the common areas), heard by the website link, which rewrites the gateway
 * file and reloads the gateway (app.ts). The periodic check (website/policy-sync.ts) still runs
 * every few seconds as the safety net for changes no route makes (a pause running out on the
 * agent's timer, an automatic super-whitelist entry).
 *
 * The route does not wait for the push: a reload starts gateway workers (a second, several on a busy
 * machine or while the gateway builds its geo-IP cache), and a page that saves a super-whitelist
 * entry or switches a module must answer at once — the change itself is saved either way.
 */
export class PolicySignal {
  private readonly listeners: (() => Promise<unknown>)[] = [];
  private pending: Promise<void> = Promise.resolve();

  listen(listener: () => Promise<unknown>): void {
    this.listeners.push(listener);
  }

  /**
   * Starts every listener's push in the background. A listener's failure is its own to report (the
   * change is already saved and the periodic check retries): it never reaches the caller.
   */
  changed(): void {
    const pushed = Promise.all(this.listeners.map((listener) => listener().catch(() => undefined))).then(() => undefined);
    this.pending = Promise.all([this.pending, pushed]).then(() => undefined);
  }

  /** Resolves when every push started so far is done (tests, and a console that shuts down). */
  settled(): Promise<void> {
    return this.pending;
  }
}
