// The part of oidc-provider 9 (which ships no types) that the test provider uses.
declare module 'oidc-provider' {
  import { type IncomingMessage, type ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  interface OidcContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      provider: Provider;
    };
  }

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface InteractionDetails {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
  }

  type InteractionResult = { login: { accountId: string } } | { error: string; error_description?: string };

  class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (init: { clientId: string; accountId: string }) => GrantInstance;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export type { Account, OidcContext, GrantInstance };
  export default Provider;
}
