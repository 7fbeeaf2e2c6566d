import { AdminError, findAdminTarget, type AdminTarget } from './admin-client';
import { parseFlags, usageError as printUsageError } from './parse-flags';
import { type CliCommand } from './types';

/** One kind of credential holder the host lists and revokes: paired devices, joined machines. */
export interface CredentialListSpec<Item> {
  name: string;
  summary: string;
  usage: string;
  /** What `revoke` takes, for its usage error: "one device id or name". */
  revokeTakes: string;
  list(target: AdminTarget): Promise<readonly Item[]>;
  /** Revokes the one `which` names and returns the line to print. */
  revoke(target: AdminTarget, items: readonly Item[], which: string): Promise<string>;
  format(items: readonly Item[]): string;
  json(items: readonly Item[]): unknown;
}

/**
 * `askaway <name> [--json]` lists, `askaway <name> revoke <which>` revokes (R16.4, R17.2): both
 * through the running host's admin API, with the admin token from its data dir.
 */
export function credentialListCommand<Item>(spec: CredentialListSpec<Item>): CliCommand {
  const usageError = (message: string) => printUsageError(spec.name, spec.usage, message);
  return {
    name: spec.name,
    summary: spec.summary,
    async run(argv) {
      const parsed = parseFlags(
        spec.name,
        spec.usage,
        argv,
        { json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
        true,
      );
      if ('exit' in parsed) return parsed.exit;
      const { values, positionals } = parsed;
      const [verb, ...rest] = positionals;
      if (verb !== undefined && verb !== 'revoke') return usageError(`unknown subcommand "${verb}"`);
      if (verb === 'revoke' && rest.length !== 1) return usageError(`revoke takes ${spec.revokeTakes}`);
      try {
        const target = findAdminTarget(process.env, values['data-dir']);
        const items = await spec.list(target);
        if (verb === 'revoke') {
          process.stdout.write(`${await spec.revoke(target, items, rest[0] ?? '')}\n`);
          return 0;
        }
        process.stdout.write(values.json ? `${JSON.stringify(spec.json(items))}\n` : spec.format(items));
        return 0;
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        process.stderr.write(`askaway ${spec.name}: ${error.message}\n`);
        return error.exitCode;
      }
    },
  };
}

/**
 * The one item `which` names: an exact id, else a unique id prefix (4+ characters), else a unique
 * name (any case). `words` name the kind in the refusals: "paired device", "devices".
 */
export function findByIdOrName<Item extends { id: string; name: string }>(
  items: readonly Item[],
  which: string,
  words: { one: string; many: string },
): Item {
  const wanted = which.trim();
  const byId = items.find((item) => item.id === wanted);
  if (byId) return byId;
  const candidates =
    wanted.length >= 4 && items.some((item) => item.id.startsWith(wanted))
      ? items.filter((item) => item.id.startsWith(wanted))
      : items.filter((item) => item.name.toLowerCase() === wanted.toLowerCase());
  const [only, ...others] = candidates;
  if (!only) throw new AdminError(`No ${words.one} "${wanted}". \`askaway ${words.many}\` lists them.`);
  if (others.length > 0) {
    const ids = candidates.map((item) => `${item.id} (${item.name})`).join(', ');
    throw new AdminError(`"${wanted}" matches ${candidates.length} ${words.many}: ${ids}. Revoke one by its id.`);
  }
  return only;
}
