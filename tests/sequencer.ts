/**
 * The order `npm test` hands files to its workers: longest first (LPT), so that on two cores the
 * long e2e files start at once and no long file starts last with the other worker idle.
 *
 * A file's expected length is its duration from the last run in vitest's cache
 * (node_modules/.vite/vitest/…/results.json) where there is one; on a clean clone (CI) there is
 * none, so it comes from ESTIMATE_MS below: seconds measured on the 2-core machine, relative figures
 * only. A file in neither runs after the estimated ones, in vitest's own order (larger files first).
 * The order changes nothing a test asserts: files run in separate processes either way.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import path from 'node:path';

/**
 * Milliseconds, project:path → duration in a clean-clone `bash .ci/run` on the 2-core machine (its
 * log's per-file figures, files of 8 s and more); only their order matters.
 */
export const ESTIMATE_MS: Readonly<Record<string, number>> = {
  'e2e:tests/e2e/guide.test.ts': 239_000,
  'unit:tests/unit/cli-interrupt.test.ts': 197_000,
  'e2e:tests/e2e/dgx-exchange.test.ts': 166_000,
  'browser:tests/browser/neural-experience-worker.test.ts': 165_000,
  'browser:tests/browser/trainer-worker.test.ts': 150_000,
  'e2e:tests/e2e/experience.test.ts': 128_000,
  'e2e:tests/e2e/web-demonstrations.test.ts': 96_000,
  'e2e:tests/e2e/train-resume.test.ts': 90_000,
  'unit:tests/unit/pretrain/pretrain-run.test.ts': 89_000,
  'unit:tests/unit/train/real-training.test.ts': 83_000,
  'e2e:tests/e2e/train-dream.test.ts': 76_000,
  'e2e:tests/e2e/play-web.test.ts': 74_000,
  'e2e:tests/e2e/views-say-what-they-show.test.ts': 72_000,
  'unit:tests/unit/cli-web-failures.test.ts': 70_000,
  'unit:tests/unit/web/app-reset.test.ts': 68_000,
  'unit:tests/unit/web/page-bounds.test.ts': 64_000,
  'unit:tests/unit/web/running-app.test.ts': 59_000,
  'unit:tests/unit/train/tensor-leak.test.ts': 55_000,
  'e2e:tests/e2e/runs.test.ts': 54_000,
  'e2e:tests/e2e/train.test.ts': 51_000,
  'unit:tests/unit/web/foreign-sites.test.ts': 50_000,
  'unit:tests/unit/cli-resume.test.ts': 48_000,
  'e2e:tests/e2e/room.test.ts': 42_000,
  'unit:tests/unit/web/web-env.test.ts': 42_000,
  'unit:tests/unit/web/generated/generated-held-out.test.ts': 41_000,
  'e2e:tests/e2e/runs-evaluate.test.ts': 40_000,
  'unit:tests/unit/jobs/entry-points.test.ts': 39_000,
  'e2e:tests/e2e/backend-probe.test.ts': 38_000,
  'browser:tests/browser/webllm-transport.test.ts': 36_000,
  'e2e:tests/e2e/accessibility.test.ts': 36_000,
  'unit:tests/unit/train/offline-training.test.ts': 36_000,
  'unit:tests/unit/web/generated/generated-oracle.test.ts': 36_000,
  'unit:tests/unit/experiments/run-file.test.ts': 36_000,
  'unit:tests/unit/pretrain/fit-init.test.ts': 35_000,
  'unit:tests/unit/experience/experience-service.test.ts': 35_000,
  'unit:tests/unit/cli.test.ts': 35_000,
  'unit:tests/unit/experience/http-transport.test.ts': 33_000,
  'unit:tests/unit/experience/neural.test.ts': 32_000,
  'unit:tests/unit/web/own-demonstrations.test.ts': 31_000,
  'e2e:tests/e2e/phone-layout.test.ts': 30_000,
  'unit:tests/unit/experiments/paper-report.test.ts': 30_000,
  'unit:tests/unit/experience/room-server.test.ts': 30_000,
  'unit:tests/unit/jobs/policy-card.test.ts': 29_000,
  'e2e:tests/e2e/evaluate.test.ts': 28_000,
  'unit:tests/unit/bench/run-args.test.ts': 27_000,
  'e2e:tests/e2e/evaluate-trace.test.ts': 26_000,
  'unit:tests/unit/experiments/curriculum-variance.test.ts': 26_000,
  'unit:tests/unit/web/record.test.ts': 24_000,
  'unit:tests/unit/web/actionable.test.ts': 23_000,
  'unit:tests/unit/fuzz/parsers.test.ts': 23_000,
  'unit:tests/unit/jobs/fifth-experience-model.test.ts': 22_000,
  'browser:tests/browser/trainer-checkpoint-lock.test.ts': 21_000,
  'unit:tests/unit/envs/rollout.test.ts': 20_000,
  'unit:tests/unit/services/trainer-checkpoint.test.ts': 20_000,
  'unit:tests/unit/cli-overlaps.test.ts': 20_000,
  'browser:tests/browser/trainer-curriculum.test.ts': 16_000,
  'e2e:tests/e2e/play.test.ts': 16_000,
  'unit:tests/unit/experiments/missed-successes.test.ts': 15_000,
  'e2e:tests/e2e/buffer.test.ts': 15_000,
  'unit:tests/unit/services/trainer-service-dream.test.ts': 15_000,
  'unit:tests/unit/train/metrics-export.test.ts': 15_000,
  'unit:tests/unit/cli-bad-input.test.ts': 14_000,
  'unit:tests/unit/experience/reasoning-fit.test.ts': 13_000,
  'e2e:tests/e2e/two-tabs.test.ts': 13_000,
  'unit:tests/unit/web/rollout-trace.test.ts': 12_000,
  'unit:tests/unit/replay/store-writers.test.ts': 12_000,
  'unit:tests/unit/train/diverged-run.test.ts': 11_000,
  'unit:tests/unit/web/generated/generated-pages.test.ts': 10_000,
  'unit:tests/unit/services/policy-player-evaluate.test.ts': 9_000,
  'unit:tests/unit/platform/backend-probe.test.ts': 9_000,
  'unit:tests/unit/layering.test.ts': 9_000,
};

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byDefault = await super.sort(files);
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification): number | undefined => {
      const key = `${spec.project.name}:${path.relative(root, spec.moduleId).split(path.sep).join('/')}`;
      return this.ctx.cache.getFileTestResults(key)?.duration ?? ESTIMATE_MS[key];
    };
    const position = new Map(byDefault.map((spec, i) => [spec, i]));
    return [...byDefault].sort((a, b) => {
      const ea = expected(a);
      const eb = expected(b);
      if (ea !== undefined && eb !== undefined && ea !== eb) return eb - ea;
      if (ea !== undefined && eb === undefined) return -1;
      if (ea === undefined && eb !== undefined) return 1;
      return (position.get(a) as number) - (position.get(b) as number);
    });
  }
}
