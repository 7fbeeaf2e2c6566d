/**
 * The team hub's tables in PostgreSQL, in the schema the connection's search_path names first (`public`
 * unless the URL's `options=-c search_path=…` says otherwise). Every name starts with `askaway_`, so the
 * log can share a database with other applications.
 *
 * `askaway_schema` holds one row per migration applied; the highest version is the schema's. An older
 * Askaway refuses a database whose schema is newer than it reads (R20.12).
 */
export const SCHEMA_TABLE = 'askaway_schema';

/** Every migration, in order; the one at index i moves the schema from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE askaway_meta (key text PRIMARY KEY, value text NOT NULL);
  -- One row: the newest seq. Every append locks it first, which orders appends (see pg-append.ts).
  CREATE TABLE askaway_head (
    id smallint PRIMARY KEY CHECK (id = 1),
    last_seq bigint NOT NULL CHECK (last_seq >= 0)
  );
  INSERT INTO askaway_head (id, last_seq) VALUES (1, 0);
  -- body is the whole event as JSON text (json, not jsonb: kept byte for byte, and jsonb refuses \\u0000).
  CREATE TABLE askaway_events (
    seq bigint PRIMARY KEY CHECK (seq > 0),
    type text NOT NULL,
    at text NOT NULL,
    body json NOT NULL
  );
  CREATE TABLE askaway_credentials (
    kind text NOT NULL,
    id text NOT NULL,
    secret_hash bytea NOT NULL,
    created_at text NOT NULL,
    last_seen_at text,
    PRIMARY KEY (kind, id)
  );
  `,
  `
  -- Pairing and join codes (R20.42): shared by every replica, a code's hash only, never the code.
  CREATE TABLE askaway_codes (
    hash bytea PRIMARY KEY,
    purpose text NOT NULL,
    expires_at timestamptz NOT NULL,
    used boolean NOT NULL DEFAULT false
  );
  `,
  `
  -- Failed pairing and join attempts (R20.46): one token bucket per client address and one for everyone, shared
  -- by every replica. A row holds its bucket's size, so a bucket refills at the rate it was last counted with.
  CREATE TABLE askaway_attempts (
    key text PRIMARY KEY,
    capacity double precision NOT NULL,
    refill_per_second double precision NOT NULL,
    tokens double precision NOT NULL,
    allowed boolean NOT NULL,
    at timestamptz NOT NULL
  );
  -- Secret answers on their way to the agent's replica (R20.47): each replica's public key (its private key is in
  -- its memory only), and the answer sealed to each, until the agent has it.
  CREATE TABLE askaway_replicas (
    id text PRIMARY KEY,
    public_key bytea NOT NULL,
    seen_at timestamptz NOT NULL
  );
  CREATE TABLE askaway_sealed_answers (
    request_id text NOT NULL,
    replica_id text NOT NULL,
    box bytea NOT NULL,
    sealed_at timestamptz NOT NULL,
    PRIMARY KEY (request_id, replica_id)
  );
  `,
  `
  -- Web Push subscriptions and ntfy topics, shared by every replica (R20.60): whichever leads sends to all.
  CREATE TABLE askaway_push_subscriptions (
    device_id text PRIMARY KEY,
    endpoint text NOT NULL UNIQUE,
    p256dh text NOT NULL,
    auth text NOT NULL,
    updated_at text NOT NULL
  );
  CREATE TABLE askaway_ntfy_topics (owner text PRIMARY KEY, url text NOT NULL, updated_at text NOT NULL);
  -- The agent and admin tokens and the VAPID key pair, made by the first replica, adopted by the others (R20.61).
  CREATE TABLE askaway_secrets (name text PRIMARY KEY, value text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  -- Questions whose notification went out, so that a new leader does not send it again (R20.63).
  CREATE TABLE askaway_push_notified (request_id text PRIMARY KEY, notified_at timestamptz NOT NULL DEFAULT now());
  -- The hubs before this schema sent their own notifications: what the log holds needs none from a new leader.
  INSERT INTO askaway_push_notified (request_id)
    SELECT DISTINCT body->'interaction'->>'requestId' FROM askaway_events WHERE type = 'interaction.requested';
  -- Devices looking at the app, per replica, each on a lease the replica renews while it looks (R20.64).
  CREATE TABLE askaway_presence (
    replica_id text NOT NULL,
    device_id text NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (replica_id, device_id)
  );
  `,
  `
  -- How many agents each machine has connected to each replica, on a lease the replica renews (R20.66).
  CREATE TABLE askaway_machine_presence (
    replica_id text NOT NULL,
    machine_id text NOT NULL,
    agents integer NOT NULL CHECK (agents > 0),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (replica_id, machine_id)
  );
  `,
  `
  -- Which pending questions have their agents connected to which replica, on a lease (R20.67): the leader
  -- withdraws as stale what no live replica routes.
  CREATE TABLE askaway_routes (
    replica_id text NOT NULL,
    request_id text NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (replica_id, request_id)
  );
  `,
];

/** The version this build writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The channel a log's appends are announced on: one per log, so two logs in one database never hear each other. */
export function notifyChannel(logId: string): string {
  return `askaway_log_${logId}`;
}
