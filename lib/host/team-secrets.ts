import path from 'node:path';
import { errorMessage } from '../contracts';
import {
  ADMIN_TOKEN_FILE,
  AGENT_TOKEN_FILE,
  explicitToken,
  newAdminToken,
  newAgentToken,
  readSecretFile,
  replaceSecretFile,
} from './data-dir';
import { HostStartError } from './errors';
import { newVapidKeys, readVapidKeys, VAPID_FILE } from './push/vapid-keys';
import { type PgEventStore } from './store/pg/pg-event-store';
import { type TeamSecrets } from './store/pg/pg-team-secrets';
import { redactUrl } from './store/pg/pg-url';

/**
 * A team hub replica's tokens and VAPID keys (R20.61): the database's, which the first replica to start wrote from
 * its own data dir (or made). The tokens are then written into this replica's data dir too, where `askaway status`,
 * `askaway devices`, `askaway away` and the hooks on this machine read them, exactly as on a personal hub. An
 * ASKAWAY_TOKEN that is not the team's stops the start: agents given it would be refused by every replica.
 */
export async function adoptTeamSecrets(
  store: Pick<PgEventStore, 'secrets'>,
  options: { dataDir: string; databaseUrl: string; token?: string; log: (line: string) => void },
): Promise<TeamSecrets> {
  const { dataDir, log } = options;
  const given = explicitToken(options.token);
  const tokenFile = path.join(dataDir, AGENT_TOKEN_FILE);
  const adminFile = path.join(dataDir, ADMIN_TOKEN_FILE);
  const localToken = readSecretFile(tokenFile);
  const localAdmin = readSecretFile(adminFile);
  const localVapid = await readVapidKeys(dataDir);
  let adopted: Awaited<ReturnType<PgEventStore['secrets']['adopt']>>;
  try {
    adopted = await store.secrets.adopt({
      agentToken: given ?? localToken ?? newAgentToken(),
      adminToken: localAdmin ?? newAdminToken(),
      vapid: localVapid ?? newVapidKeys(),
    });
  } catch (error) {
    throw new HostStartError(
      `Cannot read the team hub's tokens and push keys in ${redactUrl(options.databaseUrl)}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  const { secrets, created } = adopted;
  if (given !== undefined && given !== secrets.agentToken) {
    throw new HostStartError(
      `ASKAWAY_TOKEN is not this team hub's agent token, which the database holds: agents given it would be refused. ` +
        `Unset ASKAWAY_TOKEN (this replica then writes the team's token into ${tokenFile}), or give it the team's.`,
    );
  }
  if (created.length > 0)
    log(`Team hub: the database now holds this replica's ${describe(created)}; every replica uses them.`);
  if (given === undefined && localToken !== secrets.agentToken) {
    replaceSecretFile(tokenFile, secrets.agentToken);
    if (localToken !== undefined) log(`Team hub: ${tokenFile} held another agent token; it now holds the team's.`);
  }
  if (localAdmin !== secrets.adminToken) {
    replaceSecretFile(adminFile, secrets.adminToken);
    if (localAdmin !== undefined) log(`Team hub: ${adminFile} held another admin token; it now holds the team's.`);
  }
  if (localVapid !== undefined && localVapid.publicKey !== secrets.vapid.publicKey) {
    log(
      `Team hub: ${path.join(dataDir, VAPID_FILE)} holds other push keys than the team's, which this replica uses; ` +
        'phones that subscribed with those keys enable notifications again.',
    );
  }
  return secrets;
}

function describe(created: readonly (keyof TeamSecrets)[]): string {
  const names: Record<keyof TeamSecrets, string> = {
    agentToken: 'agent token',
    adminToken: 'admin token',
    vapid: 'Web Push keys',
  };
  return created.map((key) => names[key]).join(', ');
}
