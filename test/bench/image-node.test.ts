// The bench starts the exporter with the image's NODE_OPTIONS on the image's Node: both read from the Dockerfile.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imageNodeOf } from '../../bench/image-node.js';
import { finalStage, readRepoDockerfile, stageEnv } from '../container/dockerfile.js';

describe('imageNodeOf', () => {
  it("reads the repository's Dockerfile as the Dockerfile reader of the policy test does", () => {
    const text = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
    const runtime = finalStage(readRepoDockerfile());
    expect(imageNodeOf(text)).toEqual({
      version: /^node:(\d+\.\d+\.\d+)-/.exec(runtime.image)?.[1],
      nodeOptions: stageEnv(runtime).NODE_OPTIONS,
    });
  });

  it('takes the last stage only, and no NODE_OPTIONS as none', () => {
    const text = [
      'FROM node:26.10.0-trixie-slim AS build',
      'ENV NODE_OPTIONS="--max-old-space-size=4096"',
      'FROM node:24.1.2-bookworm-slim',
      'ENV NODE_ENV=production',
    ].join('\n');
    expect(imageNodeOf(text)).toEqual({ version: '24.1.2', nodeOptions: '' });
  });

  it('gives up on an image that is not node:X.Y.Z, and refuses options that are not plain flags', () => {
    expect(imageNodeOf('FROM node:lts-slim\n')).toBeUndefined();
    expect(imageNodeOf('no FROM at all\n')).toBeUndefined();
    expect(() =>
      imageNodeOf('FROM node:26.10.0-trixie-slim\nENV NODE_OPTIONS="--x=1; rm -rf /"\n'),
    ).toThrow();
  });
});
