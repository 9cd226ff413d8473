import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigFromEnv } from '../src/config/agent-config.ts';
import { gidFromGroupFile } from '../src/config/group-file.ts';
import { kernelStatusFrom } from '../src/index.ts';

const groupText = 'root:x:0:\nrampart:x:998:alice,bob\nbroken:x:notanumber:\n';

describe('gidFromGroupFile', () => {
  it('finds a group by exact name', () => {
    expect(gidFromGroupFile(groupText, 'rampart')).toBe(998);
    expect(gidFromGroupFile(groupText, 'ramp')).toBeUndefined();
    expect(gidFromGroupFile(groupText, 'broken')).toBeUndefined();
  });
});

describe('agentConfigFromEnv', () => {
  let dir: string;
  let groupFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-config-'));
    groupFile = path.join(dir, 'group');
    await writeFile(groupFile, groupText);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('defaults everything under ./var', async () => {
    expect(await agentConfigFromEnv({}, '/opt/rampart', groupFile)).toEqual({
      socketPath: '/opt/rampart/var/run/agent.sock',
      stateDir: '/opt/rampart/var/agent',
      socketGroupId: undefined,
      dryReboot: false,
    });
  });

  it('honours the environment and resolves the group name', async () => {
    const config = await agentConfigFromEnv(
      { RAMPART_DATA_DIR: 'data', RAMPART_AGENT_SOCKET: '/run/x.sock', RAMPART_SOCKET_GROUP: 'rampart', RAMPART_DRY_REBOOT: '1' },
      '/srv',
      groupFile,
    );
    expect(config).toEqual({ socketPath: '/run/x.sock', stateDir: '/srv/data/agent', socketGroupId: 998, dryReboot: true });
  });

  it('refuses an unknown group', async () => {
    await expect(agentConfigFromEnv({ RAMPART_SOCKET_GROUP: 'nobody-here' }, '/srv', groupFile)).rejects.toThrow(/nobody-here/);
  });
});

describe('kernelStatusFrom', () => {
  it('is normal with root and nft, and lists each missing piece otherwise', () => {
    const base = { os: 'Debian', kernel: '6.1' };
    expect(kernelStatusFrom({ ...base, euid: 0, nftPath: '/usr/sbin/nft' })).toEqual({ ...base, status: 'normal', causes: [] });
    expect(kernelStatusFrom({ ...base, euid: 1000, nftPath: undefined })).toEqual({
      ...base,
      status: 'abnormal',
      causes: ['not_root', 'nft_missing'],
    });
  });
});
