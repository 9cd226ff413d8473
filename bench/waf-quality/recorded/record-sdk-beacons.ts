/**
 * Records what real browser SDKs send, as a legitimate set recorded from software we did not write
 * (issue 25). Four vendors' own npm packages (Sentry: errors, breadcrumbs, session replay; PostHog:
 * product analytics, autocapture, session replay; Mixpanel: analytics and its rrweb recorder;
 * Amplitude: analytics with its beacon transport) are loaded by a page on one loopback "site" and
 * send to a collector on another (Chromium's host-resolver-rules map both names to 127.0.0.1), so
 * every beacon is cross-site with a foreign Referer and Origin, as in production. The page is driven
 * in Debian's Chromium (playwright-core): clicks, typing, route changes, thrown errors, console
 * logs, then the tab is hidden and closed so the SDKs flush with sendBeacon.
 * Every request that reaches the collector is written as one JSON line: method, target, raw header
 * pairs, body base64 (recorded at the socket, before any parsing of ours: what the gateway would see).
 *
 *   bash bench/waf-quality/recorded/install-sdks.sh /tmp/sdk     # npm packages + a Sentry IIFE bundle
 *   node bench/waf-quality/recorded/record-sdk-beacons.ts /tmp/sdk bench/waf-quality/recorded/sdk-beacons.ndjson [rounds]
 */
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { recordedLine } from './recording.ts';

const [sdkDir = '/tmp/sdk', outFile = 'sdk-beacons.ndjson', roundsText = '6'] = process.argv.slice(2);
const rounds = Number(roundsText);
const out = createWriteStream(outFile);
let recorded = 0;

const assets: Record<string, string> = {
  '/sdk/sentry.js': join(sdkDir, 'sentry.iife.js'),
  '/sdk/posthog.js': join(sdkDir, 'node_modules/posthog-js/dist/array.full.js'),
  '/sdk/mixpanel.js': join(sdkDir, 'node_modules/mixpanel-browser/dist/mixpanel.umd.js'),
  '/sdk/mixpanel-recorder.js': join(sdkDir, 'node_modules/mixpanel-browser/dist/mixpanel-recorder.min.js'),
  '/sdk/amplitude.js': join(sdkDir, 'node_modules/@amplitude/analytics-browser/lib/scripts/amplitude-min.umd.js'),
};

/** The collector: answers every vendor's endpoint with what its SDK accepts, and records. */
const collector = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const origin = req.headers.origin ?? '*';
    const cors = { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' };
    if (req.method !== 'OPTIONS') {
      out.write(recordedLine(req, body));
      recorded++;
    }
    const path = req.url ?? '/';
    let answer = '{}';
    if (path.startsWith('/posthog/flags') || path.startsWith('/posthog/decide')) answer = JSON.stringify({ featureFlags: { 'new-checkout': true }, sessionRecording: { endpoint: '/s/' }, supportedCompression: ['gzip-js'], config: { enable_collect_everything: true }, flags: {} });
    else if (path.startsWith('/amplitude')) answer = JSON.stringify({ code: 200, events_ingested: 1, payload_size_bytes: body.length, server_upload_time: Date.now() });
    else if (path.startsWith('/mixpanel')) answer = '1';
    res.writeHead(200, { 'content-type': 'application/json', ...cors });
    res.end(answer);
  });
});

const page = (collect: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop — checkout</title>
<script src="/sdk/sentry.js"></script><script src="/sdk/posthog.js"></script>
<script src="/sdk/mixpanel.js"></script><script src="/sdk/amplitude.js"></script>
<script>
Sentry.init({ dsn: '${collect.replace('http://', 'http://4f1b2c3d4e5f@')}/sentry/42', release: 'shop@1.4.2', environment: 'production',
  integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration({ maskAllText: false, blockAllMedia: false })],
  tracesSampleRate: 1.0, replaysSessionSampleRate: 1.0, replaysOnErrorSampleRate: 1.0, sendDefaultPii: true });
</script><script>
posthog.init('phc_TestKey123', { api_host: '${collect}/posthog', autocapture: true, capture_pageview: true, capture_pageleave: true,
  disable_session_recording: false, opt_out_useragent_filter: true, session_recording: { maskAllInputs: false }, persistence: 'localStorage+cookie', advanced_disable_decide: false });
</script><script>
mixpanel.init('0123456789abcdef0123456789abcdef', { api_host: '${collect}/mixpanel', track_pageview: 'full-url', record_sessions_percent: 100, recorder_src: '/sdk/mixpanel-recorder.js',
  api_transport: 'sendBeacon', batch_requests: true, batch_flush_interval_ms: 1000 });
</script><script>
amplitude.init('amp-key-123', 'user-77', { serverUrl: '${collect}/amplitude/2/httpapi', transport: 'beacon', flushIntervalMillis: 1000,
  autocapture: { elementInteractions: true, pageViews: true, sessions: true, formInteractions: true } });
</script></head><body>
<nav><a href="#/products" id="products">Products</a> <a href="#/cart" id="cart">Cart (2)</a> <a href="https://docs.other.example/help?topic=returns">Help</a></nav>
<main><h1>Checkout</h1><form id="f" onsubmit="event.preventDefault(); track('checkout_submitted')">
<label>Name <input id="name" name="name"></label><label>E-mail <input id="email" type="email" name="email"></label>
<label>Search <input id="q" name="q"></label><label>Notes <textarea id="notes" name="notes"></textarea></label>
<select id="ship" name="ship"><option>standard</option><option>express</option></select>
<button id="buy" type="submit">Place order</button></form>
<button id="broken" onclick="brokenHandler()">Apply coupon</button><div id="list"></div></main>
<script>
function track(name, props) {
  posthog.capture(name, props); mixpanel.track(name, props); amplitude.track(name, props);
}
window.addEventListener('hashchange', () => { document.title = 'Shop — ' + location.hash.slice(2); track('route_changed', { route: location.hash, referrer: document.referrer }); });
function brokenHandler() { const coupon = null; return coupon.code.toUpperCase(); }
</script></body></html>`;

await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
const collectPort = (collector.address() as AddressInfo).port;
const site = http.createServer((req, res) => {
  const file = assets[req.url ?? ''];
  if (file) {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(readFileSync(file));
  } else if ((req.url ?? '/').startsWith('/favicon')) {
    res.writeHead(404).end();
  } else {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(`http://collect.analytics.example:${collectPort}`));
  }
});
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const sitePort = (site.address() as AddressInfo).port;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  // The two site names go to loopback; every other name (vendors' own hosts) resolves to nothing.
  args: ['--host-resolver-rules=MAP *.example 127.0.0.1, MAP * ~NOTFOUND', '--no-sandbox'],
});
const searches = ['running shoes', 'union select 用法', 'c++ vector erase', "Ben & Jerry's", 'console.log vs console.info', 'https://shop.example/p/12', '50% off', 'size: 42 | colour: {red}'];
for (let round = 0; round < rounds; round++) {
  // A desktop Chromium's User-Agent, not "HeadlessChrome" (PostHog drops bot-like agents).
  const context = await browser.newContext({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`, locale: ['en-US', 'de-DE', 'zh-CN'][round % 3] });
  const tab = await context.newPage();
  if (process.env.RECORD_DEBUG) tab.on('console', (m) => console.log('console:', m.text().slice(0, 200)));
  tab.on('pageerror', (e) => { if (process.env.RECORD_DEBUG) console.log('pageerror:', String(e).slice(0, 200)); });
  await tab.goto(`http://www.shop.example:${sitePort}/checkout?utm_source=newsletter&utm_medium=email&round=${round}`, { waitUntil: 'load' });
  await tab.waitForTimeout(1500);
  await tab.click('#products');
  await tab.fill('#name', ['Zoë Müller', "O'Brien", '李雷', 'Ana-María'][round % 4]!);
  await tab.fill('#email', `user${round}@mail.example`);
  await tab.fill('#q', searches[round % searches.length]!);
  await tab.fill('#notes', 'Please leave it at the door; ring twice.\nThanks!');
  await tab.selectOption('#ship', round % 2 ? 'express' : 'standard');
  // (Strings, not functions: they run in the page, whose globals this file's types do not know.)
  await tab.evaluate(`
    Sentry.setUser({ id: 'u${round}', email: 'user${round}@mail.example' });
    Sentry.addBreadcrumb({ category: 'fetch', message: 'GET https://api.shop.example/v1/cart -> 200', data: { headers: 'content-type: application/json\\r\\ncache-control: no-store' } });
    console.log('cart loaded', { items: 2, total: '59.90' });
    Sentry.captureMessage('checkout step ${round} slow');
  `);
  await tab.click('#broken').catch(() => {});
  await tab.click('#cart');
  await tab.click('#buy');
  await tab.evaluate(`for (let i = 0; i < 20; i++) document.getElementById('list').insertAdjacentHTML('beforeend', '<p class="row">item ' + i + '</p>')`);
  await tab.mouse.move(200, 300);
  await tab.mouse.wheel(0, 400);
  await tab.waitForTimeout(2500);
  // Hidden, then gone: the SDKs flush what is queued with sendBeacon.
  await tab.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }); document.dispatchEvent(new Event('visibilitychange')); window.dispatchEvent(new Event('pagehide'));`);
  await tab.waitForTimeout(800);
  await tab.close({ runBeforeUnload: true });
  await context.close();
  await new Promise((r) => setTimeout(r, 1000));
}
await browser.close();
await new Promise((r) => setTimeout(r, 500));
site.close();
collector.close();
out.end();
console.log(`recorded ${recorded} requests to ${outFile}`);
