import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from '@playwright/test';
import { testRunEnv } from '../lib/host/test-support/leftover-processes';
import { startTestHost, type TestHost } from './support/host';
import { packAndInstall, type InstalledPackage } from './support/npm-package';
import { AppPage } from './support/pages';

// The published package, as a user gets it: `npm pack` of the build `npm test` just made, installed with
// `npm install -g` into a temporary prefix, started from outside the checkout. It runs once, in the first project.

const ROOT = path.resolve(import.meta.dirname, '..');
const TOKEN = 'npm-package-e2e-token';
/** Build tools, and what dist/cli.js bundles: none of them may be installed on a user's machine. */
const BUILD_ONLY = ['next', 'react', 'react-dom', 'esbuild', 'typescript', 'workbox-build', 'socket.io', 'zod'];

let installed: InstalledPackage | undefined;
let host: TestHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  await installed?.remove();
});

test('[R15.1] the packed tarball installs globally and runs without the checkout: /healthz, pairing, askaway mcp', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== testInfo.config.projects[0]?.name, 'the package is the same in every project');
  // Slow only when the registry resolves another better-sqlite3 than the checkout's and its addon is rebuilt.
  test.setTimeout(240_000);

  const pkg = await test.step('npm pack and npm install -g', () => packAndInstall());
  installed = pkg;
  await test.step('the tarball holds the build and nothing to build it with', () => {
    expect(pkg.tarball.files).toEqual(expect.arrayContaining(['bin/askaway.js', 'dist/cli.js', 'out/index.html']));
    expect(pkg.tarball.files.filter((file) => /^(scripts|lib|app|components|node_modules)\//.test(file))).toEqual([]);
    expect(pkg.tarball.files.some((file) => file.endsWith('.br'))).toBe(true);
    expect(pkg.dependencies).toContain('better-sqlite3');
    expect(pkg.dependencies.filter((name) => BUILD_ONLY.includes(name))).toEqual([]);
  });

  const running = await test.step('askaway start, from a folder outside the checkout', () =>
    startTestHost(TOKEN, { installed: pkg }));
  host = running;
  expect(running.output()).not.toContain('npm run build');

  await test.step('/healthz reports the packed version', async () => {
    const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const response = await page.request.get(`${running.url}/healthz`);
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', version });
  });

  await test.step('a pairing link opens the app, which pairs and connects', async () => {
    await new AppPage(page, running).pair();
    running.assertNoSecretsInOutput();
  });

  await test.step('askaway mcp lists AskUserQuestion over stdio', async () => {
    const client = new Client({ name: 'npm-package-e2e', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: pkg.bin,
      args: ['mcp'],
      env: { ...getDefaultEnvironment(), ...testRunEnv(), ASKAWAY_URL: running.url, ASKAWAY_TOKEN: running.token },
      cwd: path.dirname(running.dataDir),
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['AskUserQuestion']);
      expect(tools[0]?.inputSchema.required).toContain('questions');
    } finally {
      await client.close();
    }
  });
});
