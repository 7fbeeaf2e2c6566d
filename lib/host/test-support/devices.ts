import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { PairingCodeResponseSchema, PairResponseSchema, type PairResponse } from '../../contracts';
import { type Host } from '../create-host';

/** A paired device as tests use it: its id and the credential its app would hold. */
export type TestDevice = Pick<PairResponse, 'deviceId' | 'credential'>;

/** Pairs a device in-process, as `POST /api/pair` does after redeeming a code. */
export async function pairDevice(
  host: Pick<Host, 'devices'>,
  name = 'Test phone',
  platform = 'Test · Node',
): Promise<TestDevice> {
  const { deviceId, credential } = await host.devices.pair({ name, platform });
  return { deviceId, credential };
}

/** The admin token a host wrote into its data dir. */
export function readAdminToken(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
}

/** A JSON POST; node:http(s), so a test host's self-signed certificate is accepted. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const target = new URL(url);
  const payload = JSON.stringify(body);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers },
        rejectUnauthorized: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: keep the text for the error
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** `POST /api/admin/pairing-codes`, as `askaway pair` does: a fresh one-time code and its link. */
export async function mintPairingCode(url: string, adminToken: string) {
  const { status, json } = await postJson(
    `${url}/api/admin/pairing-codes`,
    {},
    { Authorization: `Bearer ${adminToken}` },
  );
  if (status !== 201) throw new Error(`minting a pairing code failed: ${status} ${JSON.stringify(json)}`);
  return PairingCodeResponseSchema.parse(json);
}

/** `POST /api/pair`, as the app does: exchanges a code for a device credential. */
export async function redeemPairingCode(url: string, code: string, name = 'Test phone'): Promise<PairResponse> {
  const { status, json } = await postJson(`${url}/api/pair`, { code, name, platform: 'Test · Node' });
  if (status !== 200) throw new Error(`pairing failed: ${status} ${JSON.stringify(json)}`);
  return PairResponseSchema.parse(json);
}

/** Pairs over HTTP with a host in another process (its data dir holds the admin token). */
export async function pairOverHttp(url: string, dataDir: string, name = 'Test phone'): Promise<PairResponse> {
  const { code } = await mintPairingCode(url, readAdminToken(dataDir));
  return redeemPairingCode(url, code, name);
}
