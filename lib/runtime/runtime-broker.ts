import { type PermissionBrokerPort } from '../core';
import { createInteractionBroker } from '../protocol';
import { connectToHost, type ConnectToHostOptions, type HostConnection } from './host-connection';

/**
 * The broker every runtime uses: the protocol's interaction broker (dispatch,
 * normalization, re-announce recovery, withdraw on abort) over the host connection.
 */
export function createRuntimeBroker(
  connection: HostConnection,
  options: { reannounceIntervalMs?: number } = {},
): PermissionBrokerPort {
  return createInteractionBroker({ transport: connection, reannounceIntervalMs: options.reannounceIntervalMs });
}

/** A connection and its broker, for runtimes that own both (MCP server, hooks, `ask`). */
export interface RuntimeClient {
  connection: HostConnection;
  broker: PermissionBrokerPort;
  close(): Promise<void>;
}

export function createRuntimeClient(options: ConnectToHostOptions): RuntimeClient {
  const connection = connectToHost(options);
  return { connection, broker: createRuntimeBroker(connection), close: () => connection.close() };
}
