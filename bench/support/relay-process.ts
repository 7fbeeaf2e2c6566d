import path from 'node:path';
import { REPORTER_ARGS, spawnServer, type ServerProcess } from './host-process';

/** The bare socket.io relay (baseline of R13.1) in a child process, like the host. */
export function startRelay(): Promise<ServerProcess> {
  return spawnServer([...REPORTER_ARGS, path.join(import.meta.dirname, 'relay-child.ts')]);
}
