// A throwaway PKI made with the openssl CLI: a test CA and certificates it signs (servers with SANs for
// 127.0.0.1 and localhost, clients for mutual TLS). EC P-256 keys, so a whole PKI takes well under a second.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface IssuedCert {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly key: string;
}

export interface TestPki {
  readonly dir: string;
  readonly ca: IssuedCert;
  /** Issues `name`.crt / `name`.key in dir (overwriting any earlier ones of that name). */
  readonly issue: (name: string, usage: 'server' | 'client', commonName?: string) => IssuedCert;
  readonly cleanup: () => void;
}

const openssl = (args: readonly string[], cwd: string): void => {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
};

export function createTestPki(caName = 'cityair-test-ca'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-pki-'));
  const files = (name: string): IssuedCert => ({
    certFile: join(dir, `${name}.crt`),
    keyFile: join(dir, `${name}.key`),
    cert: readFileSync(join(dir, `${name}.crt`), 'utf8'),
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
  });
  const newKey = (name: string): void =>
    openssl(
      ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`],
      dir,
    );

  newKey('ca');
  // biome-ignore format: one flag and its value per line reads better
  openssl([
    'req', '-x509', '-new', '-key', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', `/CN=${caName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ], dir);

  const issue = (name: string, usage: 'server' | 'client', commonName = name): IssuedCert => {
    newKey(name);
    openssl(['req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${commonName}`], dir);
    const ext =
      usage === 'server'
        ? 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n'
        : `subjectAltName=DNS:${commonName}\nextendedKeyUsage=clientAuth\n`;
    writeFileSync(join(dir, `${name}.ext`), ext);
    // biome-ignore format: one flag and its value per line reads better
    openssl([
      'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`,
    ], dir);
    return files(name);
  };

  return { dir, ca: files('ca'), issue, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
