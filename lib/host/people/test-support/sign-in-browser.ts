import { type TestPerson } from './oidc-test-provider';

export interface Reply {
  url: string;
  status: number;
  location?: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A browser as far as a sign-in needs one (R21.25): cookies per origin (as a browser keeps them, Path and Max-Age
 * aside), redirects followed one at a time so a test can look at or change each step.
 */
export class SignInBrowser {
  readonly cookies = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Reply> {
    return this.send(url, { method: 'GET' });
  }

  async postForm(url: string, form: Record<string, string>): Promise<Reply> {
    return this.send(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Follows redirects from `url` until `stop` says so or a page that is not a redirect. */
  async follow(url: string, stop: (reply: Reply) => boolean = () => false): Promise<Reply> {
    let reply = await this.get(url);
    while (reply.location !== undefined && !stop(reply)) reply = await this.get(reply.location);
    return reply;
  }

  /**
   * From the hub's `/auth/start` to the provider's login form, signs in as `person`, and stops at the redirect back
   * to the hub's callback (not sent yet).
   */
  async signInAtProvider(hubUrl: string, person: TestPerson): Promise<{ callbackUrl: string; authorizeUrl: string }> {
    let authorizeUrl = '';
    const login = await this.follow(`${hubUrl}/auth/start`, (reply) => {
      if (reply.url.startsWith(`${hubUrl}/auth/start`)) authorizeUrl = reply.location ?? '';
      return false;
    });
    if (!/<form method="post" action="([^"]+)"/.test(login.body)) throw new Error(`no login form: ${login.body}`);
    const action = /<form method="post" action="([^"]+)"/.exec(login.body)?.[1] ?? '';
    const submitted = await this.postForm(new URL(action, login.url).href, {
      login: person.login,
      password: person.password,
    });
    if (!submitted.location) throw new Error(`the provider did not redirect after login: ${submitted.body}`);
    const back = await this.follow(submitted.location, (reply) => reply.location?.startsWith(hubUrl) === true);
    if (!back.location) throw new Error(`the provider did not send the browser back: ${back.status} ${back.body}`);
    return { callbackUrl: back.location, authorizeUrl };
  }

  private async send(url: string, init: RequestInit): Promise<Reply> {
    const origin = new URL(url).origin;
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    this.cookies.set(origin, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string> | undefined), ...(cookie ? { Cookie: cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', ...rest] = pair.trim().split('=');
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || rest.join('=') === '';
      if (expired) jar.delete(name);
      else jar.set(name, rest.join('='));
    }
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      ...(location !== null ? { location: new URL(location, url).href } : {}),
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  }
}
