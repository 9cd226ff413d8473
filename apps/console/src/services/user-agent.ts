/**
 * A user agent as an administrator reads it in the online-terminals list: "Chrome 139 / Windows 10".
 * Choice: a small table of the browsers and systems people sign in with, not a package — the list
 * only needs a recognisable name, and an unknown agent falls back to its first product token.
 */

/** Order matters: Edge and Opera also say Chrome, Chrome also says Safari. */
const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bYaBrowser\/(\d+)/, 'Yandex'],
  [/\bMicroMessenger\/(\d+)/, 'WeChat'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Chrome Headless'],
  [/\bChromium\/(\d+)/, 'Chromium'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:\.\d+)*.*\bSafari\//, 'Safari'],
  [/\bMSIE (\d+)/, 'Internet Explorer'],
  [/\bTrident\/.*\brv:(\d+)/, 'Internet Explorer'],
];

const windowsNames: Record<string, string> = {
  // Windows 11 still says NT 10.0: the user agent cannot tell them apart.
  '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7', '6.0': 'Vista', '5.2': 'XP', '5.1': 'XP',
};

function systemOf(ua: string): string {
  const windows = /\bWindows NT (\d+\.\d+)/.exec(ua);
  if (windows) return `Windows ${windowsNames[windows[1]!] ?? windows[1]}`;
  const ios = /\b(iPhone|iPad|iPod)\b.*?\bOS (\d+)/.exec(ua);
  if (ios) return `${ios[1] === 'iPad' ? 'iPadOS' : 'iOS'} ${ios[2]}`;
  const android = /\bAndroid (\d+(?:\.\d+)?)/.exec(ua);
  if (android) return `Android ${android[1]}`;
  if (/\bHarmonyOS\b/.test(ua)) return 'HarmonyOS';
  // macOS 11 and later still report 10_15_7, so only the older numbers mean anything.
  const mac = /\bMac OS X (\d+)[._](\d+)/.exec(ua);
  if (mac) return mac[1] === '10' && Number(mac[2]) < 15 ? `macOS 10.${mac[2]}` : 'macOS';
  if (/\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bUbuntu\b/.test(ua)) return 'Ubuntu';
  if (/\bLinux\b|\bX11\b/.test(ua)) return 'Linux';
  return '';
}

function browserOf(ua: string): string {
  for (const [pattern, name] of browsers) {
    const m = pattern.exec(ua);
    if (m) return `${name} ${m[1]}`;
  }
  // Tools and scripts (curl/8.5.0, python-requests/2.31): the first product token, major.minor.
  const tool = /^([A-Za-z][\w.-]{0,40})\/(\d+(?:\.\d+)?)/.exec(ua.trim());
  if (tool && tool[1] !== 'Mozilla') return `${tool[1]} ${tool[2]}`;
  return '';
}

/** "Browser N / System", either half alone when the other is unknown, '' when both are. */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.slice(0, 512);
  return [browserOf(ua), systemOf(ua)].filter(Boolean).join(' / ');
}
