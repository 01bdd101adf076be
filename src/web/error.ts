// The one error of the web configuration: every way the file, or a certificate or key it names, can be wrong.
import { ConfigError } from '../config/config.js';

const FLAG = '--web.config.file (CITYAIR_WEB_CONFIG_FILE)';

export interface WebConfigPlace {
  /** The web configuration file; undefined while only its text is parsed. */
  readonly file?: string | undefined;
  /** Dotted path of the YAML key at fault, e.g. `tls_server_config.cert_file`; undefined: the file as a whole. */
  readonly key?: string | undefined;
}

/**
 * What is wrong and where. A ConfigError, so that at start it ends the process like any other bad setting (exit
 * status 2, the message as one line on stderr); on reload it is logged and the running configuration stays.
 * The message names the flag; `detail` is the same without it, for the reload log.
 */
export class WebConfigError extends ConfigError {
  override readonly name = 'WebConfigError';
  readonly file: string | undefined;
  readonly key: string | undefined;
  /** What is wrong, without the place; never a password, hash or key material. */
  readonly problem: string;
  /** `file: key: problem`, leaving out what is unknown. */
  readonly detail: string;

  constructor(problem: string, place: WebConfigPlace = {}) {
    const detail = [place.file, place.key, problem].filter((part) => part !== undefined).join(': ');
    super(`invalid ${FLAG}: ${detail}`);
    this.file = place.file;
    this.key = place.key;
    this.problem = problem;
    this.detail = detail;
  }

  /** The same problem, found in `file`: parsing knows the key, the loader knows which file it read. */
  inFile(file: string): WebConfigError {
    return new WebConfigError(this.problem, { file, key: this.key });
  }
}
