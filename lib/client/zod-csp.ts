import * as z from 'zod/mini';

// Classic Zod 4 compiles object parsers with `new Function` unless told not to, and even its probe for
// that (`Function("")` in a try/catch) is reported as a Content-Security-Policy violation under
// our policy without 'unsafe-eval'. The contracts are zod/mini, whose objects are interpreted, but
// the global flag keeps any schema built on zod core from probing. The remote parses little.
// Import it first in every module that loads schemas into the page (app-connection.ts, push/push-client.ts,
// pair-request.ts, device-requests.ts, machine-requests.ts).
z.config({ jitless: true });
