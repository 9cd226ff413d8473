import { DeliveryError, hostOf, type HttpReply, type HttpRequest } from './http.ts';

/**
 * A generic HTTP SMS gateway: a URL, GET or POST, and a template with {phone} and {text}. For POST
 * the template is the body (JSON-looking templates are sent as JSON and the values JSON-escaped,
 * anything else as a form body, URL-encoded); for GET it is the query string (URL-encoded). One
 * request per number. An optional header (usually a token) goes with each request.
 */
export interface GatewayConfig {
  url: string;
  method: 'GET' | 'POST';
  template: string;
  headerName: string;
  headerValue: string;
}

const jsonEscape = (v: string) => JSON.stringify(v).slice(1, -1);

function fill(template: string, values: Record<'phone' | 'text', string>, encode: (v: string) => string): string {
  return template.replace(/\{(phone|text)\}/g, (_m, name: 'phone' | 'text') => encode(values[name]));
}

export function buildGatewayRequest(config: GatewayConfig, phone: string, text: string): HttpRequest {
  const headers: Record<string, string> = {};
  if (config.headerName) headers[config.headerName] = config.headerValue;
  const values = { phone, text };
  if (config.method === 'GET') {
    const query = fill(config.template.replace(/^\?/, ''), values, encodeURIComponent);
    const url = query ? `${config.url}${config.url.includes('?') ? '&' : '?'}${query}` : config.url;
    return { method: 'GET', url, headers };
  }
  const json = /^\s*[{[]/.test(config.template);
  headers['Content-Type'] = json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded';
  return { method: 'POST', url: config.url, headers, body: fill(config.template, values, json ? jsonEscape : encodeURIComponent) };
}

/** Any 2xx is taken as accepted: gateways answer in too many shapes to read more into it. */
export function checkGatewayReply(reply: HttpReply, url: string): void {
  if (reply.status >= 200 && reply.status < 300) return;
  throw new DeliveryError(`the SMS gateway ${hostOf(url)} answered HTTP ${reply.status}: ${reply.text.slice(0, 200)}`);
}
