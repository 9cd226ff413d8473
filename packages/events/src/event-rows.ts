import type { EventParams, EventRecord } from '@rampart/contracts';
import { num, str, type Row } from './sql.ts';

export const eventColumns = 'id, time, kind, module, level, source, account, ip, params, detail, repeats';

function parseParams(text: string): EventParams {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as EventParams) : {};
  } catch {
    return {};
  }
}

export function toEventRecord(row: Row): EventRecord {
  return {
    id: num(row['id']),
    time: num(row['time']),
    kind: str(row['kind']),
    module: str(row['module']),
    level: str(row['level']),
    source: str(row['source']),
    account: str(row['account']),
    ip: str(row['ip']),
    params: parseParams(str(row['params'])),
    detail: str(row['detail']),
    repeats: num(row['repeats']),
  };
}
