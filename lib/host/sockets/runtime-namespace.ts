import { type Namespace, type Server } from 'socket.io';
import {
  InteractionRequestSchema,
  RUNTIME_NAMESPACE,
  ResolutionAckCommandSchema,
  RuntimeAuthSchema,
  WithdrawCommandSchema,
  type RuntimeAuth,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
} from '../../contracts';
import { type InteractionRegistry } from '../registry';
import { type RuntimeNotifier } from '../registry-types';
import { handshakeGuard } from './handshake';
import { handleCommand, rateLimiter } from './message-handling';
import { type RateLimit } from './token-bucket';

export interface RuntimeSocketData {
  auth: RuntimeAuth;
}

export type RuntimeNamespace = Namespace<RuntimeClientToServerEvents, RuntimeServerToClientEvents, Record<string, never>, RuntimeSocketData>;

/** The runtimes' endpoint: announce / withdraw / resolution:ack in, resolved / auto-resolution out. */
export function attachRuntimeNamespace(
  io: Server,
  options: { registry: InteractionRegistry; token: string; rateLimit: RateLimit; onError: (error: unknown) => void },
): RuntimeNotifier {
  // socket.io types a namespace with its server's event maps; each of ours has its own.
  const namespace = io.of(RUNTIME_NAMESPACE) as unknown as RuntimeNamespace;
  namespace.use(handshakeGuard(RuntimeAuthSchema, options.token, (socket, auth) => (socket.data = { auth })));
  namespace.on('connection', (socket) => {
    socket.use(rateLimiter(options.rateLimit));
    const { registry, onError } = options;
    socket.on('announce', (payload, ack) =>
      handleCommand({ schema: InteractionRequestSchema, payload, ack, onError, run: (request) => registry.announce(request, socket.id) }),
    );
    socket.on('withdraw', (payload, ack) =>
      handleCommand({ schema: WithdrawCommandSchema, payload, ack, onError, run: (command) => registry.withdraw(command) }),
    );
    socket.on('resolution:ack', (payload, ack) =>
      handleCommand({
        schema: ResolutionAckCommandSchema,
        payload,
        ack,
        onError,
        run: (command) => registry.acknowledgeResolution(command),
      }),
    );
  });
  return {
    resolved: (socketId, notice) => namespace.to(socketId).emit('resolved', notice),
    autoResolution: (socketId, notice) => namespace.to(socketId).emit('auto-resolution', notice),
  };
}
