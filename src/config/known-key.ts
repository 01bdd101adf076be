// The API key as a command would read it, found again when the command ends on a configuration error: any setting
// can be given the key's text by mistake (`--demo=<key>`, an unknown flag), and the one error line echoes what it
// was given. The key is known before the settings are checked, so the line can be cleaned whichever setting failed.
import { KEY_FRAGMENT_CHARS, Secret } from './secret.js';
import { UPSTREAM_SETTINGS } from './settings.js';
import { readSmallFile } from './small-file.js';

/** A key is a few dozen characters; a file much larger than one is the wrong file. */
export const MAX_KEY_FILE_BYTES = 4096;

const FILE_FLAG = `--${UPSTREAM_SETTINGS.apiKeyFile.flag}`;

/** The last value given to --upstream.api-key-file (as `--flag=value` or `--flag value`), before any `--`. */
function keyFileFlag(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg.startsWith(`${FILE_FLAG}=`)) value = arg.slice(FILE_FLAG.length + 1);
    else if (arg === FILE_FLAG && i + 1 < args.length) value = args[i + 1];
  });
  return value;
}

/**
 * Every text that may be the API key: CITYAIR_API_KEY, and what the key file (flag, else CITYAIR_API_KEY_FILE)
 * holds when it can be read. Both, when both are given: the error then is that both are.
 */
export function knownKeys(argv: readonly string[], env: NodeJS.ProcessEnv): Secret[] {
  const texts = [env[UPSTREAM_SETTINGS.apiKey.env]];
  const file = keyFileFlag(argv) ?? env[UPSTREAM_SETTINGS.apiKeyFile.env];
  if (file) {
    try {
      texts.push(readSmallFile(file, MAX_KEY_FILE_BYTES).toString('utf8'));
    } catch {
      // Unreadable: nothing of it can be echoed, and the error names the flag, not the path.
    }
  }
  // A text shorter than a fragment is no key (one of 16 characters or fewer is refused) and would only take
  // ordinary letters out of the line.
  return texts.flatMap((text) => {
    const key = text?.trim() ?? '';
    return key.length >= KEY_FRAGMENT_CHARS ? [new Secret(key)] : [];
  });
}
