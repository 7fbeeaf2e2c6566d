import { existsSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, terminalSafe } from '../../lib/contracts';
import { HostStartError } from '../../lib/host/errors';
import { adoptLegacyTopic } from '../../lib/host/push/legacy-topic';
import { SqlitePushStore, type PushStore } from '../../lib/host/push/push-store';
import { PUSH_DB_FILE, PushSubscriptionStore, type StoredTopic } from '../../lib/host/push/subscription-store';
import { PgEventStore } from '../../lib/host/store/pg/pg-event-store';
import { ownerTopicRefusal } from '../../lib/host/push/topic-address';
import { resolveDataDir } from '../../lib/runtime/host-address';
import { formatTable, formatTime } from './list-format';
import { parseFlags, usageError } from './parse-flags';
import { type CliCommand } from './types';

export const NTFY_USAGE = `Usage:
  askaway ntfy [--json] [--data-dir <dir> | --database <url>]
  askaway ntfy set <topic URL> [--data-dir <dir> | --database <url>]
  askaway ntfy clear [--data-dir <dir> | --database <url>]

Every question that waits is also published to each ntfy topic set (https://ntfy.sh).
A phone sets its own topic in Settings → Notifications: https only, on a public
address, and it goes when the phone is revoked. \`set\` gives the host its own topic,
any http:// or https:// address: a self-hosted ntfy on this machine or the LAN
(http://192.168.1.20:8080/askaway) can only be set here. \`clear\` removes it. The
running host follows at once; no restart.

Options:
  --json             Print the topics as JSON
  --data-dir <dir>   The host's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  --database <url>   A team hub's database (env ASKAWAY_DATABASE_URL): its topics are
                     kept there, shared by every replica
  -h, --help         Show this help
`;

/**
 * `askaway ntfy` (R12.15): the owner's topic, written into the data dir's push store (a team hub's database,
 * R20.60), which the running host reads for every new question. Whoever may write the data dir is the owner, as for the admin token.
 */
export const ntfyCommand: CliCommand = {
  name: 'ntfy',
  summary: "List ntfy topics; set or clear the host's own (a LAN ntfy)",
  async run(argv) {
    const parsed = parseFlags(
      'ntfy',
      NTFY_USAGE,
      argv,
      { json: { type: 'boolean' }, 'data-dir': { type: 'string' }, database: { type: 'string' } },
      true,
    );
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const [verb, ...rest] = positionals;
    const fail = (message: string) => usageError('ntfy', NTFY_USAGE, message);
    if (verb !== undefined && verb !== 'set' && verb !== 'clear') return fail(`unknown subcommand "${verb}"`);
    if (verb === 'set' && rest.length !== 1) return fail('set takes one topic URL');
    if (verb === 'clear' && rest.length !== 0) return fail('clear takes nothing: it clears the host’s own topic');
    const url = rest[0]?.trim() ?? '';
    const refusal = verb === 'set' ? ownerTopicRefusal(url) : undefined;
    if (refusal) {
      process.stderr.write(`askaway ntfy: ${refusal}: ${terminalSafe(url)}\n`);
      return 1;
    }

    const databaseUrl = values.database ?? process.env.ASKAWAY_DATABASE_URL;
    const opened = databaseUrl
      ? await openTeamTopics(databaseUrl)
      : openPersonalTopics(values['data-dir'] ? path.resolve(values['data-dir']) : resolveDataDir(process.env));
    if (typeof opened === 'string') {
      process.stderr.write(`askaway ntfy: ${opened}\n`);
      return 1;
    }
    try {
      if (verb === 'set') {
        await opened.store.setNtfyTopic({ kind: 'host' }, url, new Date());
        process.stdout.write(`The host now also publishes every waiting question to ${terminalSafe(url)}.\n`);
      } else if (verb === 'clear') {
        const cleared = await opened.store.setNtfyTopic({ kind: 'host' }, null, new Date());
        process.stdout.write(
          cleared ? 'The host’s own ntfy topic is cleared.\n' : 'The host has no ntfy topic of its own.\n',
        );
      } else {
        const topics = await opened.store.ntfyTopics();
        process.stdout.write(
          values.json ? `${JSON.stringify({ topics: topics.map(toJson) })}\n` : formatTopics(topics),
        );
      }
      return 0;
    } catch (error) {
      process.stderr.write(`askaway ntfy: ${errorMessage(error)}\n`);
      return 1;
    } finally {
      await opened.close();
    }
  },
};

/** A personal hub's topics, in its data dir's push.sqlite; a message when they cannot be opened. */
function openPersonalTopics(dataDir: string): { store: PushStore; close(): Promise<void> } | string {
  if (!existsSync(dataDir)) return `no Askaway data dir at ${dataDir}: run \`askaway start\` once first.`;
  let local: PushSubscriptionStore;
  try {
    local = new PushSubscriptionStore(path.join(dataDir, PUSH_DB_FILE));
  } catch (error) {
    if (!(error instanceof HostStartError)) throw error;
    return errorMessage(error);
  }
  const migrated = adoptLegacyTopic(local, new Date());
  if (migrated) process.stderr.write(`askaway ${migrated}\n`);
  const store = new SqlitePushStore(local);
  return { store, close: () => store.close() };
}

/** A team hub's topics (R20.60), in its database: every replica publishes to them. */
async function openTeamTopics(url: string): Promise<{ store: PushStore; close(): Promise<void> } | string> {
  try {
    const log = await PgEventStore.open(url, { log: () => undefined, maxConnections: 1 });
    return { store: log.pushStore, close: () => log.close() };
  } catch (error) {
    if (!(error instanceof HostStartError)) throw error;
    return error.message;
  }
}

function toJson(topic: StoredTopic) {
  return {
    setBy: topic.owner.kind,
    ...(topic.owner.kind === 'device' ? { deviceId: topic.owner.deviceId } : {}),
    url: topic.url,
    updatedAt: topic.updatedAt,
  };
}

function formatTopics(topics: readonly StoredTopic[]): string {
  if (topics.length === 0) return 'No ntfy topics. `askaway ntfy set <url>` gives the host one.\n';
  return formatTable([
    ['SET BY', 'TOPIC', 'SINCE'],
    ...topics.map((topic) => [
      topic.owner.kind === 'host' ? 'host (askaway ntfy set)' : `device ${topic.owner.deviceId}`,
      terminalSafe(topic.url),
      formatTime(topic.updatedAt),
    ]),
  ]);
}
