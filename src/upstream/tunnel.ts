// A pool whose failed connect through a proxy fails the requests waiting for it. undici's ProxyAgent hands on
// the error of its CONNECT request as it came, and when the proxy closes the connection without answering (as some
// do when the API cannot be reached) that is a socket error, which undici's client treats as one a new connection
// may cure: it keeps the requests queued and connects again at once, thousands of times a second, with no end.
// Under another code the client fails the queued requests instead, as it does for a refused connection. This is
// undici issue 3897, fixed upstream by giving the error its own code (pull request 5441); once the undici in use has
// that fix, no socket error reaches this wrapper and it changes nothing.
import type { Dispatcher } from 'undici';
import { Client, Pool } from './undici-parts.js';

type ConnectCallback = (error: Error | null, socket: unknown) => void;
type Connect = (options: unknown, callback: ConnectCallback) => void;

/** The error a tunnel that closed unanswered becomes. */
export class TunnelClosedError extends Error {
  readonly code = 'UND_ERR_PROXY_CLOSED';
  constructor(cause: Error) {
    super(`the proxy closed the connection without opening a tunnel (${cause.message})`);
    this.name = 'TunnelClosedError';
  }
}

/** undici's socket error code: the one its client retries a connect on. */
const RETRIED = 'UND_ERR_SOCKET';

function failFast(connect: Connect): Connect {
  return (options, callback) =>
    connect(options, (error, socket) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      callback(error && code === RETRIED ? new TunnelClosedError(error) : error, socket);
    });
}

/** An Agent `factory`: the pool undici would build, with a connect that does not loop on a closed tunnel. */
export function tunnelPool(origin: string | URL, options: object): Dispatcher {
  const { connect, ...rest } = options as { connect?: unknown; connections?: number | null };
  const opts = typeof connect === 'function' ? { ...rest, connect: failFast(connect as Connect) } : options;
  return rest.connections === 1 ? new Client(origin, opts) : new Pool(origin, opts);
}
