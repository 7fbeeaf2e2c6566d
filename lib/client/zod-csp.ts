import { z } from 'zod';

// Zod 4 compiles object parsers with `new Function` unless told not to, and even its probe for
// that (`Function("")` in a try/catch) is reported as a Content-Security-Policy violation under
// our policy without 'unsafe-eval'. The remote parses little, so the interpreter is fast enough.
// Import this module once, before any schema parses (app-shell.tsx imports it first).
z.config({ jitless: true });
