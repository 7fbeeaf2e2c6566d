import { runtimeClientProvider, type RuntimeClientProvider } from '../runtime/runtime-client-provider';
import { type Principal } from '../host/auth/principal';

/** Who called a bridge: the principal the host's check found, and the credential that proved it. */
export interface BridgeCaller {
  principal: Principal;
  credential: string;
}

/** The runtime connection a bridge call goes through, for the caller's machine. */
export type RuntimeFor = (caller: BridgeCaller) => RuntimeClientProvider;

/**
 * One runtime connection per calling machine (R17.3): the hub's own agents share the agent
 * token's connection; a joined machine's call goes through a connection made with its own
 * credential, so the host stamps its questions with that machine, exactly as if the machine had
 * connected itself. `forget` closes a machine's connection (it was revoked).
 */
export function runtimesByMachine(options: { url: string; agentToken: string; insecureTls: boolean }): {
  runtimeFor: RuntimeFor;
  forget(machineId: string): Promise<void>;
  close(): Promise<void>;
} {
  const local = runtimeClientProvider({
    url: options.url,
    token: options.agentToken,
    insecureTls: options.insecureTls,
    runtimeId: 'host-bridges',
  });
  const machines = new Map<string, { credential: string; provider: RuntimeClientProvider }>();
  return {
    runtimeFor({ principal, credential }) {
      if (principal.kind !== 'machine') return local;
      const known = machines.get(principal.id);
      if (known?.credential === credential) return known.provider;
      void known?.provider.close();
      const provider = runtimeClientProvider({
        url: options.url,
        token: credential,
        insecureTls: options.insecureTls,
        runtimeId: `host-bridges-${principal.id}`,
      });
      machines.set(principal.id, { credential, provider });
      return provider;
    },
    async forget(machineId) {
      const known = machines.get(machineId);
      machines.delete(machineId);
      await known?.provider.close();
    },
    async close() {
      const all = [local, ...[...machines.values()].map((entry) => entry.provider)];
      machines.clear();
      await Promise.all(all.map((provider) => provider.close()));
    },
  };
}
