import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Server } from 'socket.io';
import {
  HUB_API_PATH,
  ME_API_PATH,
  TEAM_API_PATH,
  RESPOND_API_PATH,
  TEAM_AUDIT_API_PATH,
  DEVICE_JOIN_CODES_API_PATH,
  errorMessage,
  joinCommand,
  MAX_MESSAGE_BYTES,
  pairingLink,
  type JoinCodeResponse,
  type MachineInfo,
  type PairingCodeResponse,
} from '../contracts';
import '../core/zod-locale';
import { Authenticator } from './auth/authenticator';
import { type AuthResult } from './auth/principal';
import { DeviceService } from './auth/devices';
import { MachineService } from './auth/machines';
import { mountPairingRoutes } from './auth/mount-routes';
import { createRespondRoute } from './respond/respond-route';
import { AuditLog } from './audit/audit-log';
import { AuditTrail } from './audit/audit-trail';
import { createTeamAuditRoute } from './audit/team-audit-route';
import { createAuthRoutes } from './people/auth-routes';
import { createHubInfoRoute } from './people/hub-info-route';
import { createMeRoute } from './people/me-route';
import { createDeviceJoinCodeRoute } from './people/device-join-code-route';
import { OidcClient } from './people/oidc-client';
import { CALLBACK_PATH, SIGN_IN_PATH, type OidcSettings } from './people/oidc-settings';
import { PeopleService } from './people/people-service';
import { SignInCookie } from './people/sign-in-cookie';
import { TeamService, type TeamActor } from './people/team-service';
import { createNoTeamRoute, createTeamRoutes } from './people/team-routes';
import { OneTimeCodes, type OneTimeCodeBook } from './auth/one-time-codes';
import { randomUUID } from 'node:crypto';
import { checkDataDirPath, loadOrCreateAdminToken, prepareDataDir, loadOrCreateToken, writeHostFile } from './data-dir';
import { HostStartError } from './errors';
import { AllowedHosts, guardHostHeader } from './http/allowed-hosts';
import { clientAddressOf } from './http/client-address';
import { MachinePresenceSharing, type MachinePresenceBoard } from './machine-presence-sharing';
import { RouteSharing, type RouteBoard } from './route-sharing';
import { createRequestHandler } from './http/request-handler';
import { HttpRouteRegistry, type HttpRoute, type HttpRouteHandler } from './http/routes';
import { SecurityHeaders } from './http/security-headers';
import { MessageIncidents } from './message-incidents';
import { followLog } from './follow-log';
import { aloneOnTheLog, type Leadership } from './leadership';
import { InteractionRegistry, type RegistryOptions } from './registry';
import { type LifecycleEvent } from './registry-types';
import { DEFAULT_STALE_AFTER_MS, startStaleSweep } from './stale-sweep';
import { type SharedPushState } from './push/shared-push-state';
import { adoptTeamSecrets } from './team-secrets';
import { originAllowed } from './sockets/handshake';
import { attachRemoteNamespace } from './sockets/remote-namespace';
import { attachRuntimeNamespace } from './sockets/runtime-namespace';
import {
  DEFAULT_NEW_INTERACTION_LIMIT,
  DEFAULT_REMOTE_RATE_LIMIT,
  DEFAULT_RUNTIME_RATE_LIMIT,
  type RateLimit,
} from './sockets/token-bucket';
import { type EventStore } from './store/event-store';
import { PgEventStore } from './store/pg/pg-event-store';
import { redactUrl } from './store/pg/pg-url';
import { SqliteEventStore } from './store/sqlite-event-store';
import { codesWithStorageHealth, withStorageHealth } from './store/storage-guarded-store';
import { StorageHealth, StorageUnavailableError } from './store/storage-health';
import { HOST_VERSION } from './version';

export const DEFAULT_PORT = 4417;
export const DEFAULT_BIND_HOST = '127.0.0.1';
/** How long a pairing link works (R16.2); `--pair-ttl` changes it. */
export const DEFAULT_PAIR_TTL_MS = 10 * 60_000;

export interface HostOptions {
  /** Holds the token, the event log and host.json. Created when missing. */
  dataDir: string;
  /** 0 picks a free port. Default 4417. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1 (R12.1). */
  host?: string;
  /** Overrides the stored agent token (ASKAWAY_TOKEN). */
  token?: string;
  /** How long a pairing code works. Default 10 minutes (R16.2). */
  pairTtlMs?: number;
  /** The address pairing links point at (given the port, when it is picked at listen). Default: `publicUrl`, else `url`. */
  pairingBaseUrl?: string | ((port: number) => string | undefined);
  /** The machine's name, as a removed device is told (R16.5). Default: the OS host name. */
  hostName?: string;
  pairLimits?: { perAddress: RateLimit; global: RateLimit; failurePauseMs?: number };
  /** The PWA's static export. Default `out/` of the current directory. */
  staticDir?: string;
  /** PEM contents: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** The address phones really use (tunnel, proxy): pairing link base and an allowed origin. */
  publicUrl?: string;
  /** Extra browser origins allowed to connect (e.g. a dev server). */
  allowedOrigins?: string[];
  /** More names the host answers for besides loopback, its addresses and the public URL's (R12.4). */
  allowedHosts?: string[];
  /**
   * Proxies whose X-Forwarded-For is believed (R20.49): addresses or CIDR blocks (`--trusted-proxy`). Without
   * any, a request's address is its peer's.
   */
  trustedProxies?: string[];
  httpRoutes?: HttpRoute[];
  /** Default: SQLite at `<dataDir>/askaway.db`. The host closes it on close(). */
  store?: EventStore;
  /**
   * A team hub's log (R20.10): the event log and the credentials' hashes in this PostgreSQL database instead of
   * `<dataDir>/askaway.db` (`--database`, ASKAWAY_DATABASE_URL). The tokens and push state are the database's too
   * (R20.60–R20.61); the data dir keeps host.json and a copy of the tokens for the commands on this machine.
   */
  databaseUrl?: string;
  rateLimits?: { runtime?: RateLimit; remote?: RateLimit; newInteractions?: RateLimit; respond?: RateLimit };
  /** Interactions one machine may have waiting (R12.7); `--max-pending`. Default 500. */
  maxPendingPerMachine?: number;
  historyLimit?: number;
  /** Withdraw a pending interaction its runtime has not announced for this long (died without withdrawing). Default 5 minutes. */
  staleAfterMs?: number;
  /** How often to look for such interactions. Default 15 s. */
  staleSweepIntervalMs?: number;
  /**
   * A team hub's leases on what replicas share (which agents are connected, which questions they route; R20.66,
   * R20.67): renewed every third of it. Default 15 s; tests shorten it.
   */
  sharedLeaseMs?: number;
  onLifecycle?: (event: LifecycleEvent) => void;
  onError?: (error: unknown) => void;
  /** Operational lines: refused messages, a full disk and its recovery. Default: stderr. */
  log?: (line: string) => void;
  /** Write `<dataDir>/host.json` while running. Default true. */
  writeHostFile?: boolean;
  /** A team hub's people (R21.1): they sign in at this OpenID Connect provider. Without it the hub is one person's. */
  people?: OidcSettings;
}

export interface Host {
  /** Where this machine reaches the host, e.g. `http://127.0.0.1:4417`. */
  url: string;
  port: number;
  /** `publicUrl` if given, else `url`. */
  publicUrl: string;
  /** The agent token: runtimes, `/mcp`, the hook endpoint (R16.1). */
  token: string;
  /** Opens the admin API only (R16.8); kept in `<dataDir>/admin-token`. */
  adminToken: string;
  hostName: string;
  dataDir: string;
  secure: boolean;
  registry: InteractionRegistry;
  /** Whether this process runs the deadlines: always for a personal hub, the elected replica for a team's (R20.43). */
  leadership: Leadership;
  devices: DeviceService;
  /** The hub itself and the machines joined to it (R17). */
  machines: MachineService;
  /** A team hub's people (R21), when it was started with an OpenID Connect provider. */
  people?: PeopleService;
  /** A team hub's audit record (R21.60): how host code records what it does, in the same commit. */
  audit?: AuditTrail;
  /** Where people sign in, and the redirect URL to register at the provider (R21.4). */
  signIn?: { url: string; callbackUrl: string; issuer: string };
  authenticator: Authenticator;
  /** Pairing and join codes: in memory, or in the team database (R20.42). */
  codes: OneTimeCodeBook;
  /** A team hub's push subscriptions, keys, sent notifications and looking devices, in its database (R20.60–R20.64). */
  sharedPush?: SharedPushState;
  pairTtlMs: number;
  /** A fresh one-time pairing code and the link that carries it (R16.2). */
  mintPairingCode(): Promise<PairingCodeResponse>;
  /** A fresh one-time join code and the command that uses it on another machine (R17.1). */
  mintJoinCode(): Promise<JoinCodeResponse>;
  io: Server;
  registerHttpRoute(method: string, pathPrefix: string, handler: HttpRouteHandler): () => void;
  /** Closes sockets, the HTTP server and the log; removes host.json. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts the host (R10.1): registry over the durable log, PWA, `/runtime` and `/remote` on one port. */
export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = path.resolve(options.dataDir);
  // R12.11: everything that can refuse the start is checked before anything is written: the data dir's
  // path, the options, the certificate and the port first, then the log (read before it is written).
  checkDataDirPath(dataDir);
  const hostName = options.hostName ?? os.hostname();
  const pairTtlMs = options.pairTtlMs ?? DEFAULT_PAIR_TTL_MS;
  const publicBase = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const report = options.onError ?? ((error: unknown) => console.error('[askaway]', error));
  // The disk's refusals are said once by the storage health (R12.6), not again by every timer that hits one.
  const onError = (error: unknown) => {
    if (!(error instanceof StorageUnavailableError)) report(error);
  };
  const incidents = new MessageIncidents(log);
  const clientAddress = clientAddressOf(options.trustedProxies ?? []);
  const secure = options.tls !== undefined;
  const routes = new HttpRouteRegistry();
  for (const route of options.httpRoutes ?? []) routes.register(route.method, route.pathPrefix, route.handler);
  const staticDir = path.resolve(options.staticDir ?? 'out');
  // Until the set-up below is done (the log folded, the credential store open), agents are asked to try again.
  let authenticateAgent = (_candidate: string | undefined): Promise<AuthResult> =>
    Promise.resolve({ ok: false, code: 'unauthorized', message: 'The host is starting; try again' });
  const handler = createRequestHandler({
    staticDir,
    routes,
    headers: new SecurityHeaders(staticDir),
    authenticateAgent: (candidate) => authenticateAgent(candidate),
    incidents,
    clientAddress,
  });
  const server = createServer(options.tls, handler);
  try {
    await listen(server, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_BIND_HOST);
  } catch (error) {
    await options.store?.close();
    throw error;
  }

  // The registry's snapshots list machines, and the machine service needs the registry: filled in just below.
  let listMachines = (): MachineInfo[] => [];
  let opened: Awaited<ReturnType<typeof openState>>;
  try {
    opened = await openState({ ...options, dataDir, hostName, log, onError, listMachines: () => listMachines() });
  } catch (error) {
    server.close();
    throw error;
  }
  const {
    token,
    adminToken,
    store,
    codes,
    attempts,
    secretRelay,
    leadership,
    registry,
    devices,
    machines,
    sharedPush,
    machineBoard,
    routeBoard,
  } = opened;
  listMachines = () => machines.list();
  // A phone sees a machine's agents as connected whichever replica of a team hub they are on (R20.66).
  const machinePresence = machineBoard && new MachinePresenceSharing(machines, machineBoard, onError);
  machinePresence?.start();
  const authenticator = new Authenticator({ agentToken: token, adminToken, devices, machines });
  authenticateAgent = (candidate) => authenticator.runtime(candidate);
  // Filled in once listening: pairing links need the port.
  let pairingBase = '';
  const mintJoinCode = async (): Promise<JoinCodeResponse> => {
    const minted = await codes.mint('join-machine', pairTtlMs);
    return {
      code: minted.code,
      hubUrl: pairingBase,
      command: joinCommand(pairingBase, minted.code),
      expiresAt: minted.expiresAt.toISOString(),
    };
  };
  const mintPairingCode = async (): Promise<PairingCodeResponse> => {
    const minted = await codes.mint('pair-device', pairTtlMs);
    return {
      code: minted.code,
      link: pairingLink(pairingBase, minted.code),
      expiresAt: minted.expiresAt.toISOString(),
    };
  };
  const port = (server.address() as AddressInfo).port;
  const url = `${secure ? 'https' : 'http'}://${urlHost(options.host ?? DEFAULT_BIND_HOST)}:${port}`;
  const extraOrigins = [...(options.allowedOrigins ?? []), ...(publicBase ? [new URL(publicBase).origin] : [])];
  const chosenBase =
    typeof options.pairingBaseUrl === 'function' ? options.pairingBaseUrl(port) : options.pairingBaseUrl;
  pairingBase = chosenBase ?? publicBase ?? url;
  const people = options.people && new PeopleService({ registry, ownerEmail: options.people.ownerEmail });
  // Only a hub with people keeps an audit record: a personal hub's log is exactly as before (R21.60).
  const audit = people && new AuditTrail(registry.projection);
  const auditLog = audit && new AuditLog(registry, store, onError);
  const team = people && new TeamService(registry, undefined, audit);
  const signIn = options.people && {
    url: `${pairingBase}${SIGN_IN_PATH}`,
    callbackUrl: `${pairingBase}${CALLBACK_PATH}`,
    issuer: options.people.issuer,
  };
  if (options.people && people && team && signIn) {
    const deviceActor = (deviceId: string, req?: IncomingMessage): TeamActor => ({
      kind: 'device',
      deviceId,
      ...(req ? { address: clientAddress(req) } : {}),
    });
    routes.register(
      '*',
      TEAM_API_PATH,
      createTeamRoutes({
        team,
        people,
        devices,
        machines,
        authenticate: (candidate) => authenticator.remote(candidate),
        originAllowed: (req) => originAllowed(req, secure, extraOrigins),
        clientAddress,
        ...(audit ? { audit } : {}),
        onError,
      }),
    );
    routes.register(
      '*',
      DEVICE_JOIN_CODES_API_PATH,
      createDeviceJoinCodeRoute({
        authenticate: (candidate) => authenticator.remote(candidate),
        personOf: (deviceId) => registry.projection.devices.get(deviceId)?.personId,
        mintJoinCode,
        recordGrant: (personId, deviceId, code, req) =>
          people.joinCodeMinted(
            personId,
            deviceId,
            code,
            audit?.done({ deviceId, address: clientAddress(req), via: 'api' }, 'join-code-minted', (id: string) =>
              audit.personTarget(id),
            ),
          ),
        groupRefusal: (deviceId, groupId) => team.mayInviteFor(deviceActor(deviceId), groupId),
        recordGroupGrant: (deviceId, groupId, code, req) =>
          team.groupJoinCodeMinted(deviceActor(deviceId, req), groupId, code),
        personRefusal: (deviceId, personId) => team.personInviteRefusal(deviceActor(deviceId), personId),
        recordPersonGrant: (deviceId, personId, code, req) =>
          team.personJoinCodeMinted(deviceActor(deviceId, req), personId, code),
        originAllowed: (req) => originAllowed(req, secure, extraOrigins),
        onError,
      }),
    );
    routes.register(
      '*',
      '/auth',
      createAuthRoutes({
        hubName: hostName,
        oidc: new OidcClient(options.people, signIn.callbackUrl),
        cookie: new SignInCookie(options.people.clientSecret, pairingBase.startsWith('https:')),
        people,
        publicBase: pairingBase,
        mintPairingCode,
        auditSignIn: audit && ((req) => audit.signedIn(clientAddress(req))),
        log,
      }),
    );
  } else routes.register('*', TEAM_API_PATH, createNoTeamRoute());
  mountPairingRoutes(routes, {
    codes,
    devices,
    machines,
    mintJoinCode,
    authenticator,
    pairTtlMs,
    pairLimits: options.pairLimits,
    sharedAttempts: attempts,
    clientAddress,
    originAllowed: (req) => originAllowed(req, secure, extraOrigins),
    mintPairingCode,
    personForCode: people && (async (code) => (await people.personForPairingCode(code))?.id),
    ownerForJoinCode: people && ((code) => people.ownerForJoinCode(code)),
    team,
    people,
    audit,
    auditLog,
    away: {
      get: () => registry.projection.preferences.away,
      set: async (away) => (await registry.updatePreferences({ away })).ok,
    },
  });
  // What the app asks before and after pairing (R21.30, R21.31): every hub answers, with or without people.
  routes.register(
    '*',
    HUB_API_PATH,
    createHubInfoRoute({
      signIn: signIn && { path: SIGN_IN_PATH, issuer: signIn.issuer },
      originAllowed: (req) => originAllowed(req, secure, extraOrigins),
    }),
  );
  routes.register(
    '*',
    ME_API_PATH,
    createMeRoute({
      devices,
      authenticate: (candidate) => authenticator.remote(candidate),
      originAllowed: (req) => originAllowed(req, secure, extraOrigins),
    }),
  );
  routes.register(
    '*',
    RESPOND_API_PATH,
    createRespondRoute({
      registry,
      devices,
      authenticate: (candidate) => authenticator.remote(candidate),
      originAllowed: (req) => originAllowed(req, secure, extraOrigins),
      rateLimit: options.rateLimits?.respond,
      ...(audit ? { audit: { trail: audit, clientAddress } } : {}),
    }),
  );
  routes.register(
    '*',
    TEAM_AUDIT_API_PATH,
    createTeamAuditRoute({
      auditLog,
      authenticate: (candidate) => authenticator.remote(candidate),
      mayRead: (deviceId) => team?.managedFrom(deviceId) === true,
      originAllowed: (req) => originAllowed(req, secure, extraOrigins),
    }),
  );

  const io = new Server(server, {
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    allowRequest: (req, callback) => callback(null, originAllowed(req, secure, extraOrigins)),
    ...(options.allowedOrigins?.length ? { cors: { origin: options.allowedOrigins } } : {}),
  });
  // After socket.io has attached: the check runs before its handshake and upgrade too (R12.4).
  guardHostHeader(
    server,
    new AllowedHosts({
      bindHost: options.host ?? DEFAULT_BIND_HOST,
      publicUrl: publicBase,
      names: options.allowedHosts,
    }),
  );
  const notifier = attachRuntimeNamespace(io, {
    registry,
    machines,
    authenticate: (candidate) => authenticator.runtime(candidate),
    rateLimit: options.rateLimits?.runtime ?? DEFAULT_RUNTIME_RATE_LIMIT,
    newInteractionLimit: options.rateLimits?.newInteractions ?? DEFAULT_NEW_INTERACTION_LIMIT,
    incidents,
    onError,
  });
  const detachRemotes = attachRemoteNamespace(io, {
    registry,
    devices,
    machines,
    authenticate: (candidate) => authenticator.remote(candidate),
    rateLimit: options.rateLimits?.remote ?? DEFAULT_REMOTE_RATE_LIMIT,
    ...(audit ? { audit: { trail: audit, clientAddress } } : {}),
    incidents,
    onError,
  });
  // Deadlines run in one replica only (R20.43): the leader, elected through the database; a personal hub leads.
  registry.lead(leadership.leading);
  const stopFollowingLeadership = leadership.onChange((leading) => registry.lead(leading));
  await registry.start(notifier);
  // Another hub process on the same log (a team hub's replicas): what it appends reaches this one's sockets.
  const stopFollowing = followLog(store, registry, onError);
  // On a shared log the leader also withdraws what no live replica routes: a replica and its agents both gone (R20.67).
  const routeSharing = routeBoard && new RouteSharing(registry, routeBoard);
  routeSharing?.start();
  const stopStaleSweep = startStaleSweep(registry, {
    staleAfterMs: options.staleAfterMs,
    intervalMs: options.staleSweepIntervalMs,
    onError,
    ...(routeBoard
      ? {
          routedAnywhere: () => routeBoard.routedAnywhere(),
          // A question announced a moment ago is on the board only at its replica's next publish.
          orphansAfterMs: (options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS) + 2 * routeBoard.renewEveryMs,
        }
      : {}),
  });

  const removeHostFile =
    options.writeHostFile === false
      ? () => undefined
      : writeHostFile(dataDir, { url, pid: process.pid, port, version: HOST_VERSION });
  const publicUrl = publicBase ?? url;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    publicUrl,
    token,
    adminToken,
    hostName,
    dataDir,
    secure,
    registry,
    leadership,
    devices,
    machines,
    people,
    ...(audit ? { audit } : {}),
    signIn,
    authenticator,
    codes,
    ...(sharedPush ? { sharedPush } : {}),
    pairTtlMs,
    mintPairingCode,
    mintJoinCode,
    io,
    registerHttpRoute: (method, pathPrefix, routeHandler) => routes.register(method, pathPrefix, routeHandler),
    close: () => (closing ??= shutdown()),
  };

  async function shutdown(): Promise<void> {
    stopStaleSweep();
    stopFollowing();
    stopFollowingLeadership();
    await leadership.stop();
    detachRemotes();
    registry.stop();
    await new Promise<void>((resolve, reject) => {
      io.close(() => resolve()).catch(reject);
      // Keep-alive HTTP connections would otherwise hold server.close() open.
      server.closeAllConnections();
    });
    // The queue's last commits first: a command already taken is written before the log closes.
    await registry.settled();
    await machinePresence?.stop();
    await routeSharing?.stop();
    // Its phones' "looking" goes with it, rather than holding notifications back until the leases run out.
    await sharedPush?.presence.withdraw().catch(() => undefined);
    await secretRelay?.stop();
    await store.close();
    removeHostFile();
  }
}

/** The certificate is read here: a bad one refuses the start before anything is written. */
function createServer(tls: HostOptions['tls'], handler: http.RequestListener): http.Server {
  try {
    return tls ? https.createServer({ cert: tls.cert, key: tls.key }, handler) : http.createServer(handler);
  } catch (error) {
    throw new HostStartError(`Cannot use the TLS certificate or key: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * The data dir, the log and the tokens, in the order that writes nothing until the log is known good
 * (R12.11): a refused log leaves no token behind, and a data dir is tightened to its owner (R12.9).
 */
async function openState(
  options: HostOptions & {
    dataDir: string;
    hostName: string;
    log: (line: string) => void;
    onError: (error: unknown) => void;
    listMachines: RegistryOptions['listMachines'];
  },
) {
  const { dataDir, hostName, onError } = options;
  prepareDataDir(dataDir);
  const { databaseUrl } = options;
  const health = new StorageHealth({
    ...(databaseUrl === undefined ? { dataDir } : { database: redactUrl(databaseUrl) }),
    log: options.log,
  });
  const opened =
    options.store ??
    (databaseUrl === undefined
      ? new SqliteEventStore(path.join(dataDir, 'askaway.db'), { localMachineName: hostName })
      : await PgEventStore.open(databaseUrl, { log: options.log }));
  const store = withStorageHealth(opened, health);
  // A team hub's codes work on whichever replica the phone or machine reaches (R20.42); a personal hub's stay in memory.
  const codes: OneTimeCodeBook =
    opened instanceof PgEventStore ? codesWithStorageHealth(opened.codes, health) : new OneTimeCodes();
  // Its failed-attempt limit too (R20.46): n replicas allow what one hub allows.
  const attempts = opened instanceof PgEventStore ? opened.attempts : undefined;
  // A secret answer taken on one replica reaches an agent on another sealed to it (R20.47).
  const secretRelay = opened instanceof PgEventStore ? opened.secretRelay(onError) : undefined;
  let registry: InteractionRegistry;
  let devices: DeviceService;
  let machines: MachineService;
  try {
    await secretRelay?.start();
    registry = await InteractionRegistry.open({
      store,
      hostName,
      listMachines: options.listMachines,
      historyLimit: options.historyLimit,
      maxPendingPerMachine: options.maxPendingPerMachine,
      sharedLog: opened instanceof PgEventStore,
      secretRelay,
      onLifecycle: options.onLifecycle,
      onError,
    });
    devices = await DeviceService.open({ registry, credentials: store.credentials, hostName, onError });
    machines = await MachineService.open({ registry, credentials: store.credentials, hubName: hostName, onError });
  } catch (error) {
    await secretRelay?.stop();
    await store.close();
    throw new HostStartError(`Cannot read the event log: ${errorMessage(error)}`, { cause: error });
  }
  try {
    // Only once the log is known good: a refused data dir gets nothing written into it.
    let token: string;
    let adminToken: string;
    let sharedPush: SharedPushState | undefined;
    let machineBoard: MachinePresenceBoard | undefined;
    let routeBoard: RouteBoard | undefined;
    if (opened instanceof PgEventStore && databaseUrl !== undefined) {
      // A team hub's replicas share one agent token, one admin token and one key pair (R20.61).
      const secrets = await adoptTeamSecrets(opened, { dataDir, databaseUrl, token: options.token, log: options.log });
      ({ agentToken: token, adminToken } = secrets);
      sharedPush = {
        store: opened.pushStore,
        vapid: secrets.vapid,
        ledger: opened.notifyLedger,
        presence: opened.presenceBoard(randomUUID()),
      };
      machineBoard = opened.machinePresence(randomUUID(), options.sharedLeaseMs);
      routeBoard = opened.routeBoard(randomUUID(), options.sharedLeaseMs);
    } else {
      token = loadOrCreateToken(dataDir, options.token);
      adminToken = loadOrCreateAdminToken(dataDir);
    }
    const leadership: Leadership =
      opened instanceof PgEventStore ? opened.leadership({ log: options.log }) : aloneOnTheLog;
    await leadership.start();
    return {
      token,
      adminToken,
      store,
      codes,
      attempts,
      secretRelay,
      leadership,
      registry,
      devices,
      machines,
      sharedPush,
      machineBoard,
      routeBoard,
    };
  } catch (error) {
    registry.stop();
    await secretRelay?.stop();
    await store.close();
    throw error;
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is in use (is another askaway running? try --port 0)`
          : error.code === 'EACCES'
            ? `no permission to listen on ${host}:${port}`
            : error.code === 'EADDRNOTAVAIL'
              ? `${host} is not an address of this machine`
              : error.message;
      reject(new HostStartError(`Cannot listen: ${reason}`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Wildcard binds are reached locally through loopback; IPv6 literals need brackets. */
function urlHost(bindHost: string): string {
  if (bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '') return '127.0.0.1';
  return bindHost.includes(':') ? `[${bindHost}]` : bindHost;
}

function parsePublicUrl(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    throw new HostStartError(`--public-url must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
}
