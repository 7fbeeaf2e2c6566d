import path from 'node:path';
import { errorMessage, type HostEvent } from '../../lib/contracts';
import { digestLog, eventBatches, type LogDigest } from '../../lib/host/store/log-digest';
import { PgEventStore } from '../../lib/host/store/pg/pg-event-store';
import { importLog } from '../../lib/host/store/pg/pg-import';
import { redactUrl } from '../../lib/host/store/pg/pg-url';
import { type SqliteEventStore } from '../../lib/host/store/sqlite-event-store';
import { type StoredCredential } from '../../lib/host/store/sqlite-credential-store';
import { activeDevices, activeMachines, emptyHostFold, foldHostEvent } from '../../lib/state/host-fold';
import { readPersonalPushState } from './migrate-push-state';
import { openPersonalLog } from './migrate-source';

export interface MigrationSummary {
  dataDir: string;
  /** The database, its password left out. */
  where: string;
  logId: string;
  log: LogDigest;
  devices: number;
  machines: number;
  pending: number;
  credentials: { device: number; machine: number };
  /** Web Push subscriptions and ntfy topics moved (R20.65). */
  push: { subscriptions: number; topics: number };
  /** Which of the agent token, the admin token and the VAPID keys moved. */
  secrets: string[];
}

export interface MigrateOptions {
  dataDir: string;
  url: string;
  /** Told after each batch is written (not yet committed), with the events copied so far and in all. */
  progress?: (copied: number, total: number) => void;
}

/**
 * Moves the personal hub in `dataDir` into the empty log of the database at `url` (R20.30): every event with
 * its seq, the credentials' hashes and the log's id, in one transaction, then checks both logs read alike
 * (R20.34). The personal log is only read.
 */
export async function migratePersonalHub(options: MigrateOptions): Promise<MigrationSummary> {
  const dataDir = path.resolve(options.dataDir);
  const source = openPersonalLog(dataDir);
  try {
    const pushState = readPersonalPushState(dataDir);
    const credentials = await source.credentials.all();
    const fold = emptyHostFold();
    const total = await source.lastSeq();
    const { progress } = options;
    await importLog(
      options.url,
      {
        logId: source.logId,
        events: folding(eventBatches(source), fold),
        credentials,
        push: pushState,
        secrets: pushState.secrets,
      },
      progress ? { progress: (copied) => progress(copied, total) } : {},
    );
    const log = await verify(source, options.url, credentials).catch((error: unknown) => {
      if (error instanceof CopyDiffers) throw error;
      // Committed already: a second run would find the log not empty, so say what happened.
      throw new Error(
        `The log was copied into ${redactUrl(options.url)}, but reading it back to check it failed: ${errorMessage(error)}`,
        { cause: error },
      );
    });
    return {
      dataDir,
      where: redactUrl(options.url),
      logId: source.logId,
      log,
      devices: activeDevices(fold).length,
      machines: activeMachines(fold).length,
      pending: [...fold.interactions.values()].filter((view) => view.status === 'pending').length,
      credentials: {
        device: credentials.filter((credential) => credential.kind === 'device').length,
        machine: credentials.filter((credential) => credential.kind === 'machine').length,
      },
      push: { subscriptions: pushState.subscriptions.length, topics: pushState.topics.length },
      secrets: pushState.secrets.map((secret) => secret.name),
    };
  } finally {
    await source.close();
  }
}

/** The committed copy reads back unlike the personal log. */
class CopyDiffers extends Error {}

/** Passes the batches on, folding each event into `fold` on the way (what the summary counts). */
async function* folding(
  batches: AsyncIterable<HostEvent[]>,
  fold: ReturnType<typeof emptyHostFold>,
): AsyncGenerator<HostEvent[]> {
  for await (const batch of batches) {
    for (const event of batch) foldHostEvent(fold, event);
    yield batch;
  }
}

/** Reads the team log back as a team hub would, and compares it with the personal one. */
async function verify(
  source: SqliteEventStore,
  url: string,
  credentials: readonly StoredCredential[],
): Promise<LogDigest> {
  const target = await PgEventStore.open(url, { log: () => undefined, maxConnections: 1 });
  try {
    const [mine, theirs] = [await digestLog(source), await digestLog(target)];
    const differences: string[] = [];
    if (target.logId !== source.logId) differences.push(`log id ${target.logId}, not ${source.logId}`);
    if (theirs.events !== mine.events) differences.push(`${theirs.events} events, not ${mine.events}`);
    if (theirs.lastSeq !== mine.lastSeq) differences.push(`last seq ${theirs.lastSeq}, not ${mine.lastSeq}`);
    else if (theirs.digest !== mine.digest) differences.push('events that differ (their digests do)');
    for (const credential of credentials) {
      const hash = await target.credentials.secretHash(credential.kind, credential.id);
      if (!hash?.equals(credential.secretHash))
        differences.push(`no matching hash for ${credential.kind} ${credential.id}`);
    }
    if (differences.length > 0) {
      throw new CopyDiffers(
        `The copy in ${redactUrl(url)} does not match the personal log: it holds ${differences.join('; ')}. ` +
          'Do not start a team hub on it; the personal log is as it was.',
      );
    }
    return mine;
  } finally {
    await target.close();
  }
}
