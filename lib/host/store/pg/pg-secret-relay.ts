import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { InteractionResolutionSchema, type InteractionResolution } from '../../../contracts';
import { type SecretRelay } from '../../secret-relay';
import { type PgDatabase } from './pg-database';
import { newBoxKeys, open, seal, type BoxKeys } from './sealed-box';

/** How often a replica says it is alive; one silent for three of these is sealed to no more. */
const HEARTBEAT_MS = 30_000;
const ALIVE_FOR = '90 seconds';
/** A box its agent never took (gone for good) goes after this. */
const KEEP_BOXES = '1 day';

/**
 * The PostgreSQL side of the secret relay (R20.47). Each replica has a key pair made at start and never written
 * anywhere (`askaway_replicas` holds its public half and when it last said it was alive); a secret answer is
 * sealed to every live replica's key into `askaway_sealed_answers`, and the boxes of an interaction go once its
 * agent has the answer. A replica that restarts has a new key: what was sealed to its old one is unreadable, and
 * the question is asked again, as after a personal hub's restart.
 */
export class PgSecretRelay implements SecretRelay {
  private readonly id = randomUUID();
  private readonly keys: BoxKeys = newBoxKeys();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: PgDatabase,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    await this.sayAlive();
    this.heartbeat = setInterval(() => {
      this.sayAlive().catch(this.onError);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    // Boxes sealed to this process's key can never be opened again.
    await this.db
      .query('leave', 'DELETE FROM askaway_replicas WHERE id = $1', [this.id])
      .then(() => this.db.query('leave', 'DELETE FROM askaway_sealed_answers WHERE replica_id = $1', [this.id]))
      .catch(() => undefined);
  }

  async seal(resolution: InteractionResolution): Promise<void> {
    const replicas = await this.db.query<{ id: string; public_key: Buffer }>(
      'hand a secret answer over in',
      `SELECT id, public_key FROM askaway_replicas WHERE seen_at > now() - $1::interval`,
      [ALIVE_FOR],
    );
    const plaintext = JSON.stringify(resolution);
    const boxes = replicas.map((replica) => seal(plaintext, replica.public_key, resolution.requestId));
    await this.db.query(
      'hand a secret answer over in',
      `INSERT INTO askaway_sealed_answers (request_id, replica_id, box, sealed_at)
         SELECT $1, replica_id, box, now() FROM unnest($2::text[], $3::bytea[]) AS t(replica_id, box)
       ON CONFLICT (request_id, replica_id) DO UPDATE SET box = EXCLUDED.box, sealed_at = EXCLUDED.sealed_at`,
      [resolution.requestId, replicas.map((replica) => replica.id), boxes],
    );
  }

  async open(requestId: string): Promise<InteractionResolution | undefined> {
    const rows = await this.db.query<{ box: Buffer }>(
      'read a secret answer from',
      'SELECT box FROM askaway_sealed_answers WHERE request_id = $1 AND replica_id = $2',
      [requestId, this.id],
    );
    const box = rows[0]?.box;
    const plaintext = box === undefined ? undefined : open(box, this.keys, requestId);
    if (plaintext === undefined) return undefined;
    const parsed = z.safeParse(InteractionResolutionSchema, parseJson(plaintext));
    // Sealed for this question by a replica of this hub: anything else is no answer to hand the agent.
    return parsed.success && parsed.data.requestId === requestId ? parsed.data : undefined;
  }

  async forget(requestId: string): Promise<void> {
    await this.db.query('forget a secret answer in', 'DELETE FROM askaway_sealed_answers WHERE request_id = $1', [
      requestId,
    ]);
  }

  private async sayAlive(): Promise<void> {
    await this.db.query(
      'register with',
      `INSERT INTO askaway_replicas (id, public_key, seen_at) VALUES ($1, $2, now())
       ON CONFLICT (id) DO UPDATE SET seen_at = now()`,
      [this.id, this.keys.publicKey],
    );
    await this.db.query('register with', `DELETE FROM askaway_replicas WHERE seen_at < now() - $1::interval`, [
      KEEP_BOXES,
    ]);
    await this.db.query('register with', `DELETE FROM askaway_sealed_answers WHERE sealed_at < now() - $1::interval`, [
      KEEP_BOXES,
    ]);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
