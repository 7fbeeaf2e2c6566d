import { createInteractionBroker, type InteractionBroker } from '../protocol';
import { connectToHost, type ConnectToHostOptions, type HostConnection } from './host-connection';

/**
 * The broker every runtime uses: the protocol's interaction broker (dispatch,
 * normalization, re-announce recovery, withdraw on abort) over the host connection.
 */
export function createRuntimeBroker(
  connection: HostConnection,
  options: { reannounceIntervalMs?: number } = {},
): InteractionBroker {
  return createInteractionBroker({ transport: connection, reannounceIntervalMs: options.reannounceIntervalMs });
}

/** A connection and its broker, for runtimes that own both (MCP server, hooks, `ask`). */
export interface RuntimeClient {
  connection: HostConnection;
  /** Tool calls (requestPermission) and an agent's own prompts (requestInteraction, R18.1). */
  broker: InteractionBroker;
  close(): Promise<void>;
}

export function createRuntimeClient(options: ConnectToHostOptions): RuntimeClient {
  const connection = connectToHost(options);
  return { connection, broker: createRuntimeBroker(connection), close: () => connection.close() };
}
