import * as z from 'zod/mini';
import { IdSchema } from './interaction';
import { PersonRefSchema } from './people';

// What the app asks the hub over plain HTTP about people (R21.30–R21.35): apart from the socket's messages, so
// people stay off every phone's stream (R21.13), and apart from the pairing API, so the first screen carries neither.

/** `GET`: public, no credential. What a stranger at the hub's address may know: whether and where people sign in. */
export const HUB_API_PATH = '/api/hub';
/** `GET` with `Authorization: Bearer <device credential>`: whose this device is. */
export const ME_API_PATH = '/api/me';

/** Where this hub's people sign in: a path on the hub itself, never another site. */
export const HubSignInSchema = z.strictObject({
  path: z.string().check(z.regex(/^\/auth\/[a-z-]+$/, { message: 'Must be a sign-in path on this hub' })),
  /** The provider's host (`login.example.com`), to say where the person is about to go. */
  provider: z.string().check(z.minLength(1), z.maxLength(255), z.regex(/^[A-Za-z0-9.:[\]-]+$/)),
});
export type HubSignIn = z.infer<typeof HubSignInSchema>;

/** `GET /api/hub`: `signIn` is null on a hub without an identity provider (one person's hub). */
export const HubInfoSchema = z.strictObject({ signIn: z.nullable(HubSignInSchema) });
export type HubInfo = z.infer<typeof HubInfoSchema>;

/** `GET /api/me`: the calling device and its person; null for a device paired with a pairing link. */
export const MeResponseSchema = z.strictObject({
  deviceId: IdSchema,
  person: z.nullable(PersonRefSchema),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;
