/**
 * A PostgreSQL URL as a person may show it: the password replaced by `***`, everything else kept (user, host,
 * port, database and the query, which names no secret `pg` reads). Never throws: text that is no URL is shown
 * only by its scheme, since it may hold a password in a shape we cannot find.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    // `password=` in the query is a second place libpq-style URLs carry one.
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString().replace('%2A%2A%2A', '***');
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    return scheme ? `${scheme}… (not a valid URL)` : '(not a valid URL)';
  }
}

/** Why `url` cannot name a PostgreSQL database, or undefined when it can; the reason never quotes the URL. */
export function pgUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL (expected postgres://user:password@host:port/database)';
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    return `it is a ${parsed.protocol}// URL, not postgres:// or postgresql://`;
  }
  return undefined;
}
