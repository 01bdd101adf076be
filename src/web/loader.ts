// Reads the web configuration file and every certificate and key it names, and proves they work together
// (a key that does not match its certificate is found here, not at the first handshake). The result carries a
// fingerprint of every byte read, so the reloader can tell "nothing changed" without comparing structures.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import {
  type PemSource,
  parseWebConfig,
  TLS13_CIPHERS,
  type TlsSettings,
  type WebConfig,
} from './config-file.js';

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
  | { readonly ok: false; readonly message: string; readonly fingerprint: string };

/** Never throws: every problem becomes a one-line message naming the file or key at fault. */
export function loadWebConfig(path: string): LoadResult {
  const hash = createHash('sha256');
  const read = (file: string): Buffer | string => {
    try {
      const bytes = readFileSync(file);
      hash.update(file).update('\0').update(bytes).update('\0');
      if (bytes.length > MAX_FILE_BYTES) return `${file} is larger than 1 MiB`;
      return bytes;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      hash.update(file).update('\0').update(code).update('\0');
      return `cannot read ${file} (${code})`;
    }
  };
  const failed = (message: string): LoadResult => ({ ok: false, message, fingerprint: hash.digest('hex') });

  const yaml = read(path);
  if (typeof yaml === 'string') return failed(yaml);
  const parsed = parseWebConfig(yaml.toString('utf8'), dirname(path));
  if (!parsed.ok) return failed(`${path}: ${parsed.message}`);
  const { config } = parsed;
  const files = [path];
  if (!config.tls)
    return { ok: true, loaded: { config, tls: undefined, files }, fingerprint: hash.digest('hex') };

  const settings = config.tls;
  const pem = (source: PemSource, name: string): Buffer | string => {
    if ('inline' in source) return Buffer.from(source.inline, 'utf8');
    files.push(source.file);
    const bytes = read(source.file);
    return typeof bytes === 'string' ? `tls_server_config.${name}_file: ${bytes}` : bytes;
  };
  const cert = pem(settings.cert, 'cert');
  if (typeof cert === 'string') return failed(cert);
  const key = pem(settings.key, 'key');
  if (typeof key === 'string') return failed(key);
  const clientCa = settings.clientCa ? pem(settings.clientCa, 'client_ca') : undefined;
  if (typeof clientCa === 'string') return failed(clientCa);

  let notAfter: string;
  try {
    notAfter = new X509Certificate(cert).validTo;
  } catch {
    return failed(
      `tls_server_config.cert${'file' in settings.cert ? `_file (${settings.cert.file})` : ''}: not a PEM certificate`,
    );
  }
  if (clientCa) {
    try {
      new X509Certificate(clientCa);
    } catch {
      return failed('tls_server_config.client_ca_file: not a PEM certificate');
    }
  }
  const material: TlsMaterial = { settings, cert, key, clientCa, notAfter };
  try {
    createSecureContext(secureContextOptions(material));
  } catch (error) {
    // OpenSSL's messages name the problem ("key values mismatch", "bad decrypt") and never the key itself.
    return failed(`tls_server_config: certificate and key cannot be used: ${(error as Error).message}`);
  }
  return { ok: true, loaded: { config, tls: material, files }, fingerprint: hash.digest('hex') };
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
