// On the Node the container image runs, the exporter is started with the image's NODE_OPTIONS, so that the bench's
// figures on that Node are the image's. The Dockerfile is the one source of both: the version of its last FROM
// and the NODE_OPTIONS of its last stage.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { MAIN } from '../test/support/exporter-process.js';

const imageSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  // Only node and V8 flags: nothing from the Dockerfile reaches a shell, but a stray value should not either.
  nodeOptions: z.string().regex(/^(--[a-z0-9-]+(=[\w.-]+)?( |$))*$/),
});

export type ImageNode = z.infer<typeof imageSchema>;

/** The runtime stage's Node version and NODE_OPTIONS ('' when it sets none), or undefined if not node:X.Y.Z. */
export function imageNodeOf(dockerfile: string): ImageNode | undefined {
  const stages = dockerfile.split(/^FROM\s+/m);
  const last = stages.at(-1) ?? '';
  const version = /^(?:docker\.io\/library\/)?node:(\d+\.\d+\.\d+)-/.exec(last)?.[1];
  if (version === undefined || stages.length < 2) return undefined;
  const nodeOptions = /\bNODE_OPTIONS="([^"]*)"/.exec(last)?.[1] ?? '';
  return imageSchema.parse({ version, nodeOptions });
}

let cached: ImageNode | undefined | null = null;

/** The NODE_OPTIONS to start the exporter with: the image's when this bench runs on the image's Node. */
export function imageNodeOptions(): string | undefined {
  if (cached === null) cached = imageNodeOf(readFileSync(join(dirname(MAIN), '../Dockerfile'), 'utf8'));
  return cached !== undefined && cached.version === process.versions.node && cached.nodeOptions !== ''
    ? cached.nodeOptions
    : undefined;
}
