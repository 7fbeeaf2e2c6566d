import fs from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { terminalSafe } from '../../lib/contracts';
import { createHost, HOST_VERSION, HostStartError, type Host } from '../../lib/host';
import { mountAgentBridges } from '../../lib/bridges';
import { startPush, type PushRuntime } from '../../lib/host/push';
import { formatLifecycle } from '../../lib/host/lifecycle-log';
import { startDemoAgent } from '../../lib/runtime/demo/demo-agent';
import { installLastResort } from '../../lib/runtime/last-resort';
import { hubContributions } from './hub-contributions';
import { pairingTerms } from './pairing-output';
import { redactUrl } from '../../lib/host/store/pg/pg-url';
import { startBanner } from './start-banner';
import { parseStartOptions, START_USAGE, type StartOptions } from './start-options';
import {
  checkHttpsPortFree,
  isTailnetUrl,
  serveOverTailnet,
  stopServing,
  TailscaleError,
  tailnetName,
  tailscaleOnPath,
  type TailnetName,
} from './tailscale';
import { type CliCommand, UsageError } from './types';

type Stop = () => Promise<void> | void;

export const startCommand: CliCommand = {
  name: 'start',
  summary: 'Run the host: web app, runtime and remote endpoints, demo agent',
  run: runStart,
};

async function runStart(argv: string[]): Promise<number> {
  let options: StartOptions;
  try {
    options = parseStartOptions(argv, process.env, findPackageRoot(import.meta.dirname));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`askaway start: ${error.message}\n\n${START_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(START_USAGE);
    return 0;
  }
  // What a bridge's other end sends must not stop the hub through a bug of ours (R12.18).
  const undoLastResort = installLastResort((line) => log(terminalSafe(line)));
  try {
    return await serve(options);
  } finally {
    undoLastResort();
  }
}

async function serve(options: StartOptions): Promise<number> {
  // --tailscale: asked of the tailscale CLI before anything is written, so a refusal changes nothing (R12.11).
  const tailscale = options.tailscale ? tailscaleOnPath() : undefined;
  let tailnet: TailnetName | undefined;
  if (tailscale !== undefined) {
    try {
      tailnet = await tailnetName(tailscale);
      if (options.publicUrl !== undefined && !isTailnetUrl(options.publicUrl, tailnet))
        throw new TailscaleError(
          `--public-url ${options.publicUrl} is not this machine's tailnet address (${tailnet.url}); ` +
            '--tailscale sets the public URL itself: leave --public-url out.',
        );
      await checkHttpsPortFree(tailscale, tailnet, options.port === 0 ? undefined : serveTarget(options, options.port));
    } catch (error) {
      if (!(error instanceof TailscaleError)) throw error;
      process.stderr.write(`askaway start: ${error.message}\n`);
      return 1;
    }
  }
  const publicUrl = tailnet?.url ?? options.publicUrl;
  let host: Host;
  try {
    if (options.databaseUrl !== undefined && fs.existsSync(path.join(options.dataDir, 'askaway.db')))
      log(
        `askaway start: the log is in PostgreSQL; the personal log in ${options.dataDir}/askaway.db is not read ` +
          'and stays as it was (`askaway migrate` moves a personal log into an empty database).',
      );
    if (options.databasePasswordInFlag)
      log(
        'askaway start: the --database URL holds a password, which ps shows to every user of this machine; ' +
          'give it in ASKAWAY_DATABASE_URL, PGPASSWORD or ~/.pgpass instead.',
      );
    host = await createHost({
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      port: options.port,
      host: options.host,
      token: options.token,
      staticDir: options.staticDir,
      tls: options.tls,
      publicUrl,
      allowedOrigins: options.allowedOrigins,
      allowedHosts: options.allowedHosts,
      trustedProxies: options.trustedProxies,
      staleAfterMs: options.staleAfterMs,
      pairTtlMs: options.pairTtlMs,
      hostName: options.hostName,
      maxPendingPerMachine: options.maxPending,
      people: options.oidc,
      // A phone on the LAN cannot open a loopback link: point pairing links where it can reach.
      pairingBaseUrl: (port) =>
        publicUrl === undefined && isWildcard(options.host) ? lanUrls(options, port)[0] : undefined,
      onLifecycle: (event) => {
        const line = formatLifecycle(event);
        if (line) log(line);
      },
      onError: (error) =>
        process.stderr.write(`askaway: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
      log,
    });
  } catch (error) {
    if (!(error instanceof HostStartError)) throw error;
    process.stderr.write(`askaway start: ${error.message}\n`);
    return 1;
  }

  let push: PushRuntime;
  try {
    push = await startPush(host, { log, allowPrivatePush: options.allowPrivatePush });
  } catch (error) {
    await host.close();
    if (!(error instanceof HostStartError)) throw error;
    process.stderr.write(`askaway start: ${error.message}\n`);
    return 1;
  }

  if (tailscale !== undefined && tailnet !== undefined) {
    try {
      await serveOverTailnet(tailscale, serveTarget(options, host.port));
    } catch (error) {
      await host.close();
      await push.close();
      if (!(error instanceof TailscaleError)) throw error;
      process.stderr.write(`askaway start: ${error.message}\n`);
      return 1;
    }
  }

  await printBanner(host, options, tailnet !== undefined);
  if (options.allowPrivatePush)
    log('Web Push: paired devices may subscribe push services on this machine and the LAN (--allow-private-push).');
  // Their lines carry what agents and MCP servers sent (names, a form's fields): escaped, as every log line is (R12.8).
  const bridges = mountAgentBridges(host, {
    contributions: hubContributions(options),
    log: (line) => log(terminalSafe(line)),
  });
  const stopDemo = options.demo ? startDemo(host) : undefined;
  await waitForSignal();
  log('Shutting down…');
  // The serve goes first: the tailnet name stops answering before the host does, and nothing is left behind.
  if (tailscale !== undefined && tailnet !== undefined)
    log((await stopServing(tailscale)) ?? `Tailscale: stopped serving ${tailnet.url}.`);
  // Runtimes first, so their withdrawals reach the log before it closes.
  await Promise.allSettled([stopDemo?.(), bridges.close()]);
  await host.close();
  await push.close();
  // Anything a bridge left open must not keep a stopped host alive.
  setTimeout(() => process.exit(0), 2_000).unref();
  return 0;
}

/** The embedded demo agent (R10.1) reaches the host over loopback like any runtime. */
function startDemo(host: Host): Stop | undefined {
  if (host.secure) {
    // Its connection verifies certificates, and a self-signed one would fail.
    log('Demo agent: off while serving HTTPS (run without --tls-cert to see it).');
    return undefined;
  }
  log('Demo agent: started; answer its questions from the pairing link (--no-demo turns it off).');
  const demo = startDemoAgent({ url: host.url, token: host.token, log: (line) => log(`demo ${line}`) });
  return () => demo.stop();
}

/**
 * The one place a pairing code is printed by the host itself, on purpose (R16.6): one link,
 * single use and short-lived; `askaway pair` prints more. No token or credential is printed.
 */
async function printBanner(host: Host, options: StartOptions, tailnet: boolean): Promise<void> {
  const pairing = await host.mintPairingCode();
  const text = await startBanner({
    version: HOST_VERSION,
    localUrl: host.url,
    lanUrls: isWildcard(options.host) ? lanUrls(options, host.port) : [],
    publicUrl: host.publicUrl === host.url ? undefined : host.publicUrl,
    tailnet,
    pairLink: pairing.link,
    pairTerms: pairingTerms(pairing),
    dataDir: host.dataDir,
    database: options.databaseUrl === undefined ? undefined : redactUrl(options.databaseUrl),
    signIn: host.signIn,
    machines: `${host.machines.hub.name} (this one)${joinedMachines(host)}`,
    bindHost: options.host,
    port: host.port,
    webAppBuilt: fs.existsSync(path.join(options.staticDir, 'index.html')),
    staticDir: options.staticDir,
  });
  process.stdout.write(text);
}

/** Where `tailscale serve` forwards to: this host's plain http port, on loopback unless bound elsewhere. */
function serveTarget(options: StartOptions, port: number): string {
  if (isWildcard(options.host) || options.host === 'localhost' || /^127\./.test(options.host))
    return `http://127.0.0.1:${port}`;
  return options.host.includes(':')
    ? `http://[${options.host.replace(/^\[|\]$/g, '')}]:${port}`
    : `http://${options.host}:${port}`;
}

function joinedMachines(host: Host): string {
  const count = host.machines.count();
  return count === 0 ? '' : ` and ${count} joined`;
}

function isWildcard(bindHost: string): boolean {
  return bindHost === '0.0.0.0' || bindHost === '::';
}

/** Addresses of this machine on its networks. */
function lanUrls(options: StartOptions, port: number): string[] {
  const scheme = options.tls !== undefined ? 'https' : 'http';
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => `${scheme}://${entry?.address}:${port}`);
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function log(line: string): void {
  const time = new Date().toTimeString().slice(0, 8);
  process.stdout.write(`${time} ${line}\n`);
}

/** The folder holding our package.json: bin/commands/ when run from source, dist/ when bundled. */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (manifest.name === 'askaway') return dir;
    } catch {
      // Not here; keep climbing.
    }
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
