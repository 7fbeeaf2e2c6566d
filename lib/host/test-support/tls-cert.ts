import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface TestCertificates {
  /** The CA that signed the host's certificate: what NODE_EXTRA_CA_CERTS points at. */
  caFile: string;
  certFile: string;
  keyFile: string;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/**
 * A throwaway CA and a certificate it signed for 127.0.0.1 and localhost, made with openssl as a
 * person would (mkcert does the same): a hub serving its own certificate (R17.7).
 */
export function makeTestCertificates(dir: string): TestCertificates {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=askaway-test-ca',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('req', ...EC_KEY, '-keyout', file('key.pem'), '-out', file('host.csr'), '-subj', '/CN=localhost');
  fs.writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('host.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('cert.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  );
  return { caFile: file('ca.pem'), certFile: file('cert.pem'), keyFile: file('key.pem') };
}
