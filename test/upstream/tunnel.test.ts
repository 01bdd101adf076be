import { Client, Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { TunnelClosedError, tunnelPool } from '../../src/upstream/tunnel.js';

type Callback = (error: Error | null, socket: unknown) => void;

/** A connect that always fails with the given code, counting its calls. */
function failingConnect(code: string) {
  let calls = 0;
  const connect = (_options: unknown, callback: Callback): void => {
    calls++;
    setImmediate(() => callback(Object.assign(new Error(`connect failed (${code})`), { code }), null));
  };
  return { connect, calls: () => calls };
}

describe('tunnelPool', () => {
  it('fails the waiting request when the proxy closes the tunnel, instead of connecting again and again', async () => {
    const fake = failingConnect('UND_ERR_SOCKET');
    const pool = tunnelPool('http://127.0.0.1:9', { connect: fake.connect, connections: 1 });
    const error = await pool.request({ path: '/', method: 'GET' }).catch((e: unknown) => e);
    await pool.destroy();
    expect(error).toBeInstanceOf(TunnelClosedError);
    expect((error as TunnelClosedError).code).toBe('UND_ERR_PROXY_CLOSED');
    expect((error as Error).message).toContain('connect failed (UND_ERR_SOCKET)');
    expect(fake.calls()).toBeLessThan(5);
  });

  it('hands on any other connect error as it came', async () => {
    const fake = failingConnect('ECONNREFUSED');
    const pool = tunnelPool('http://127.0.0.1:9', { connect: fake.connect, connections: 1 });
    const error = await pool.request({ path: '/', method: 'GET' }).catch((e: unknown) => e);
    await pool.destroy();
    expect(error).not.toBeInstanceOf(TunnelClosedError);
    expect((error as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('builds the dispatcher undici would: a client for one connection, a pool for more', async () => {
    const one = tunnelPool('http://127.0.0.1:9', { connections: 1 });
    const many = tunnelPool('http://127.0.0.1:9', { connections: 4 });
    expect(one).toBeInstanceOf(Client);
    expect(many).toBeInstanceOf(Pool);
    await Promise.all([one.close(), many.close()]);
  });
});
