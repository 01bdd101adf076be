// A JSON schema of Grafana's dashboard model, generated from @grafana/schema's TypeScript types at test time, so
// it always matches the installed package (about 1 s with a minimal tsconfig; 6 s with the project's).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';

const require = createRequire(import.meta.url);

/** The file holding `export interface Dashboard` (schema v1, the JSON model that import and provisioning use). */
export function dashboardTypesFile(): string {
  const root = dirname(require.resolve('@grafana/schema/package.json'));
  return join(root, 'dist/types/raw/dashboard/x/types.gen.d.ts');
}

export async function generateDashboardSchema(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'cityair-grafana-schema-'));
  try {
    const tsconfig = join(dir, 'tsconfig.json');
    // No @types and a small lib: the generator only needs the one declaration file.
    await writeFile(
      tsconfig,
      JSON.stringify({
        compilerOptions: { types: [], lib: ['es2015'], skipLibCheck: true, noEmit: true },
        files: [],
      }),
    );
    const schema = createGenerator({
      path: dashboardTypesFile(),
      tsconfig,
      type: 'Dashboard',
      skipTypeCheck: true,
      expose: 'export',
      topRef: true,
    }).createSchema('Dashboard');
    return { ...schema };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Keys of a dashboard exported "for sharing externally": Grafana's import reads and removes them, so they are
 * not part of the stored model that the schema describes.
 */
export const IMPORT_ENVELOPE_KEYS = ['__inputs', '__requires', '__elements'] as const;
