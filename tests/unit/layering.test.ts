/**
 * The layering check of `npm run lint` (dependency-cruiser with .dependency-cruiser.cjs) must fail
 * on an import that runs up a floor and on a cycle, and pass the project as it is.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };

async function violations(baseDir: string, files: string[]): Promise<IViolation[]> {
  const { output } = await cruise(files, { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
  return (output as ICruiseResult).summary.violations;
}

describe('the layering check', () => {
  it('refuses an import that runs up a floor, naming the rule and both files', async () => {
    const found = await violations(path.join(import.meta.dirname, 'fixtures/layering'), ['src']);
    const upward = found.filter((v) => v.rule.name.startsWith('no-upward-from-core'));
    expect(upward).toHaveLength(1);
    expect(upward[0]).toMatchObject({ from: 'src/core/upward.ts', to: 'src/train/loop.ts' });
  });

  it('refuses an import cycle, even one made of types only', async () => {
    const found = await violations(path.join(import.meta.dirname, 'fixtures/layering'), ['src']);
    expect(found.some((v) => v.rule.name === 'no-circular' && v.from.startsWith('src/envs/'))).toBe(true);
  });

  it('passes the project as it stands', async () => {
    expect(await violations(root, ['src', 'workers', 'bench', 'experiments'])).toEqual([]);
  }, 60_000);
});
