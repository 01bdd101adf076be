// Reads the web configuration file and every certificate and key it names, and proves they work together
// (a key that does not match its certificate is found here, not at the first handshake). The result carries a
// fingerprint of every byte read, so the reloader can tell "nothing changed" without comparing structures.
import { createHash, type Hash, X509Certificate } from 'node:crypto';
import { dirname } from 'node:path';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { readSmallFile, SmallFileError } from '../config/small-file.js';
import { parseWebConfig, type WebConfig } from './config-file.js';
import { WebConfigError } from './error.js';
import { type PemSource, TLS13_CIPHERS, type TlsSettings } from './tls-settings.js';

const MAX_FILE_BYTES = 1024 * 1024;

export interface TlsMaterial {
  readonly settings: TlsSettings;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly clientCa: Buffer | undefined;
  /** Expiry of the server certificate, for the log. */
  readonly notAfter: string;
}

export interface LoadedWebConfig {
  readonly config: WebConfig;
  readonly tls: TlsMaterial | undefined;
  /** Files to watch for changes, the config file included. */
  readonly files: readonly string[];
}

export type LoadResult =
  | { readonly ok: true; readonly loaded: LoadedWebConfig; readonly fingerprint: string }
  | { readonly ok: false; readonly error: WebConfigError; readonly fingerprint: string };

/** Throws nothing but bugs: every problem is a WebConfigError naming the config file and the key at fault. */
export function loadWebConfig(path: string): LoadResult {
  const hash = createHash('sha256');
  try {
    const loaded = load(path, hash);
    return { ok: true, loaded, fingerprint: hash.digest('hex') };
  } catch (error) {
    if (!(error instanceof WebConfigError)) throw error;
    return { ok: false, error: error.inFile(path), fingerprint: hash.digest('hex') };
  }
}

/** Reads a file into the fingerprint; `key` names the YAML key that points at it (none: the config file). */
function readInto(hash: Hash, file: string, key?: string): Buffer {
  const where = key === undefined ? '' : `${file} `;
  let bytes: Buffer;
  try {
    bytes = readSmallFile(file, MAX_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof SmallFileError)) throw error;
    hash.update(file).update('\0').update(error.message).update('\0');
    throw new WebConfigError(`cannot read ${where}(${error.message})`, { key });
  }
  hash.update(file).update('\0').update(bytes).update('\0');
  return bytes;
}

function load(path: string, hash: Hash): LoadedWebConfig {
  const yaml = readInto(hash, path);
  const config = parseWebConfig(yaml.toString('utf8'), dirname(path));
  const files = [path];
  if (!config.tls) return { config, tls: undefined, files };

  const settings = config.tls;
  const pem = (source: PemSource, name: string): Buffer => {
    if ('inline' in source) return Buffer.from(source.inline, 'utf8');
    files.push(source.file);
    return readInto(hash, source.file, `tls_server_config.${name}_file`);
  };
  const cert = pem(settings.cert, 'cert');
  const key = pem(settings.key, 'key');
  const clientCa = settings.clientCa ? pem(settings.clientCa, 'client_ca') : undefined;

  let notAfter: string;
  try {
    notAfter = new X509Certificate(cert).validTo;
  } catch {
    throw 'file' in settings.cert
      ? new WebConfigError(`${settings.cert.file} is not a PEM certificate`, {
          key: 'tls_server_config.cert_file',
        })
      : new WebConfigError('not a PEM certificate', { key: 'tls_server_config.cert' });
  }
  if (clientCa) {
    try {
      new X509Certificate(clientCa);
    } catch {
      const key = settings.clientCa && 'file' in settings.clientCa ? 'client_ca_file' : 'client_ca';
      throw new WebConfigError('not a PEM certificate', { key: `tls_server_config.${key}` });
    }
  }
  const material: TlsMaterial = { settings, cert, key, clientCa, notAfter };
  try {
    createSecureContext(secureContextOptions(material));
  } catch (error) {
    // OpenSSL's messages name the problem ("key values mismatch", "bad decrypt") and never the key itself.
    throw new WebConfigError(`certificate and key cannot be used: ${(error as Error).message}`, {
      key: 'tls_server_config',
    });
  }
  return { config, tls: material, files };
}

/** What node:tls needs for the server's own identity and the client CA; also what setSecureContext takes. */
export function secureContextOptions(m: TlsMaterial): SecureContextOptions {
  const options: SecureContextOptions = {
    cert: m.cert,
    key: m.key,
    minVersion: m.settings.minVersion,
    maxVersion: m.settings.maxVersion,
    honorCipherOrder: m.settings.honorCipherOrder,
  };
  if (m.clientCa) options.ca = m.clientCa;
  if (m.settings.curves) options.ecdhCurve = m.settings.curves.join(':');
  // Node takes TLS 1.2 and 1.3 suites in one list and would drop TLS 1.3 if none of its suites were in it.
  if (m.settings.cipherSuites) options.ciphers = [...m.settings.cipherSuites, ...TLS13_CIPHERS].join(':');
  return options;
}
