import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe('generated API types', () => {
  it('schema.d.ts matches the OpenAPI description (run `npm run gen:api` after changing it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kestrel-api-'));
    try {
      const out = join(dir, 'schema.d.ts');
      const cli = here('../../node_modules/openapi-typescript/bin/cli.js');
      execFileSync(process.execPath, [cli, here('../../../httpapi/openapi/openapi.json'), '-o', out], { stdio: 'pipe' });
      expect(readFileSync(here('./schema.d.ts'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
