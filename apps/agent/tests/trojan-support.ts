import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentClient } from '@rampart/agent-client';
import type { TrojanOptions } from '../src/trojan/trojan-service.ts';
import { startTestAgent, type TestAgent } from './helpers.ts';

/* Shared by the trojan tests: small generic web shells written here, and an agent on a temp state dir. */

export const phpShell = "<?php eval($_POST['x']);\n";
export const jspShell = '<%@ page import="java.io.*" %>\n<% String c = request.getParameter("cmd"); Process p = Runtime.getRuntime().exec(c); %>\n';
export const benignPhp = "<?php\n$name = htmlspecialchars($_GET['name'] ?? 'world', ENT_QUOTES);\necho \"<p>Hello {$name}</p>\";\n";

export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000, stepMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

export interface TrojanAgent {
  agent: TestAgent;
  client: AgentClient;
  dir: string;
  close(): Promise<void>;
}

/** An agent on `<dir>/state` (timers off: tests call tick()), with a client. */
export async function trojanAgent(dir: string, trojan: TrojanOptions = {}): Promise<TrojanAgent> {
  const agent = await startTestAgent({ dir, logs: { background: false }, trojan: { timers: false, ...trojan } });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
  let closed = false;
  return {
    agent,
    client,
    dir,
    async close() {
      if (closed) return;
      closed = true;
      client.close();
      await agent.close();
    },
  };
}

/** Waits for a scan to finish (complete or end) and answers it. */
export async function scanDone(client: AgentClient, id: number, timeoutMs = 30_000) {
  const scan = await until(() => client.call('trojan.scan.get', { id }), (s) => s !== null && (s.state === 'complete' || s.state === 'end'), timeoutMs, 50);
  if (!scan || (scan.state !== 'complete' && scan.state !== 'end')) throw new Error(`scan ${id} did not finish: ${JSON.stringify(scan)}`);
  return scan;
}
