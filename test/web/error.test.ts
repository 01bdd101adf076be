import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { WebConfigError } from '../../src/web/error.js';

describe('WebConfigError', () => {
  it('says what is wrong and where, naming the flag, as a configuration error', () => {
    const e = new WebConfigError('not a bcrypt hash', {
      file: '/etc/web.yml',
      key: 'basic_auth_users.alice',
    });
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.name).toBe('WebConfigError');
    expect(e.detail).toBe('/etc/web.yml: basic_auth_users.alice: not a bcrypt hash');
    expect(e.message).toBe(
      'invalid --web.config.file (CITYAIR_WEB_CONFIG_FILE): /etc/web.yml: basic_auth_users.alice: not a bcrypt hash',
    );
  });

  it('leaves out what is unknown of the place', () => {
    expect(new WebConfigError('not YAML').detail).toBe('not YAML');
    expect(new WebConfigError('unknown key', { key: 'x' }).detail).toBe('x: unknown key');
  });

  it('names the file once the loader knows it, keeping the key and the problem', () => {
    const found = new WebConfigError('must be a string', { key: 'tls_server_config.cert' }).inFile('/w.yml');
    expect(found).toMatchObject({
      file: '/w.yml',
      key: 'tls_server_config.cert',
      problem: 'must be a string',
    });
    expect(found.detail).toBe('/w.yml: tls_server_config.cert: must be a string');
  });
});
