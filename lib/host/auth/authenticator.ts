import { createHash, timingSafeEqual } from 'node:crypto';
import { credentialKindOf } from './credential-format';
import { type DeviceService } from './devices';
import { type MachineService } from './machines';
import { LOCAL_AGENT, type AuthResult } from './principal';

/** Constant-time token check: hashing first makes the compare independent of length too. */
export function tokensEqual(candidate: string | undefined, expected: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const AGENT_TOKEN_HINT = "the agent token (the `token` file in the host's data dir, or ASKAWAY_TOKEN)";
const PAIR_HINT = 'phones and browsers pair with a one-time link: run `askaway pair` on the computer and open it';

/**
 * Which credential opens what (R16.1, R16.8), each refusal naming what was offered and what
 * to do. Every candidate goes through the same constant-time compares whatever it turns out to be.
 */
export class Authenticator {
  constructor(
    private readonly options: {
      agentToken: string;
      adminToken: string;
      devices: DeviceService;
      machines: MachineService;
    },
  ) {}

  /**
   * The runtime namespace, `/mcp`, the hook endpoint (and so `askaway ask`): the agent token (the
   * hub's own agents) or a joined machine's credential (R17.2).
   */
  async runtime(candidate: string | undefined): Promise<AuthResult> {
    if (tokensEqual(candidate, this.options.agentToken)) return { ok: true, principal: LOCAL_AGENT };
    const kind = candidate === undefined ? null : credentialKindOf(candidate);
    if (kind === 'machine' && candidate !== undefined) return this.options.machines.authenticate(candidate);
    if (kind === 'device') {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This is a device credential: it opens the phone app only. Agents use ${AGENT_TOKEN_HINT}.`,
      };
    }
    if (tokensEqual(candidate, this.options.adminToken)) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This is the admin token: it manages pairing only. Agents use ${AGENT_TOKEN_HINT}.`,
      };
    }
    return {
      ok: false,
      code: 'unauthorized',
      message: `Missing or wrong agent token: agents use ${AGENT_TOKEN_HINT}; another machine's agents use the credential \`askaway join\` stored.`,
    };
  }

  /** The remote namespace (and so push): a paired device's credential only. */
  async remote(candidate: string | undefined): Promise<AuthResult> {
    if (tokensEqual(candidate, this.options.agentToken)) {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This is the agent token: it opens the agent side only, and the app no longer uses it. Pair again: ${PAIR_HINT}.`,
      };
    }
    const kind = candidate === undefined ? null : credentialKindOf(candidate);
    if (kind === 'device' && candidate !== undefined) return this.options.devices.authenticate(candidate);
    if (kind === 'machine') {
      return {
        ok: false,
        code: 'unauthorized',
        message: `This is a machine credential: it opens the agent side only. Phones pair instead: ${PAIR_HINT}.`,
      };
    }
    return { ok: false, code: 'unauthorized', message: `Missing or unknown device credential: ${PAIR_HINT}.` };
  }

  /** The admin API: the admin token from the data dir only, never the agent token or a device credential. */
  admin(candidate: string | undefined): { ok: true } | { ok: false; status: 401 | 403; message: string } {
    if (tokensEqual(candidate, this.options.adminToken)) return { ok: true };
    const hint =
      'run `askaway pair`, `askaway devices`, `askaway invite` or `askaway machines` on the computer running the host: they read the admin token from its data dir';
    if (tokensEqual(candidate, this.options.agentToken))
      return { ok: false, status: 403, message: `The agent token cannot manage devices or machines; ${hint}.` };
    const kind = candidate === undefined ? null : credentialKindOf(candidate);
    if (kind === 'device')
      return { ok: false, status: 403, message: `A device credential cannot manage devices here; ${hint}.` };
    if (kind === 'machine')
      return { ok: false, status: 403, message: `A machine credential cannot manage devices or machines; ${hint}.` };
    return { ok: false, status: 401, message: `Missing or wrong admin token: ${hint}.` };
  }
}
