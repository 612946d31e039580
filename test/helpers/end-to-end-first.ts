/**
 * The order of test files: shuffled every run (tests must pass in any order), the end-to-end files
 * first and the unit files after them, and within each, the files that took long in the last run
 * (vitest's results cache, when there is one) first. A long file drawn last would otherwise run
 * alone while the other workers sit idle; the short unit files fill the end of the run instead.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { seededRandom } from "./soak.js";

/** A file that took this long last time starts before the others of its group. */
const LONG_FILE_MS = 10_000;

/** `items` in an order drawn from `seed`: the run's seed, printed by vitest, replays it. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `files` shuffled by `seed`, end-to-end files first; in each group the files `lastMs` says took
 * long start first (in their shuffled order).
 */
export function endToEndFirst<T extends { moduleId: string }>(files: readonly T[], seed: number, lastMs: (file: T) => number | undefined = () => undefined): T[] {
  const order = shuffled(files, seed);
  const long = (file: T) => (lastMs(file) ?? 0) >= LONG_FILE_MS;
  const endToEnd = (file: T) => file.moduleId.endsWith(".e2e.test.ts");
  const group = (inGroup: (file: T) => boolean) => [...order.filter((file) => inGroup(file) && long(file)), ...order.filter((file) => inGroup(file) && !long(file))];
  return [...group(endToEnd), ...group((file) => !endToEnd(file))];
}

export default class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const lastMs = (file: TestSpecification) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`)?.duration;
    return endToEndFirst(files, this.ctx.config.sequence.seed, lastMs);
  }
}
