/**
 * The codemode `models` global's own parts: a script's contexts checked before anything is sent,
 * the limiter that keeps four calls of a script running at once, and usage summed over calls.
 */
import { describe, expect, it } from "vitest";
import type { TypedModel } from "../../../lib/model-catalog/typed.js";
import { classifierUsage } from "../../../lib/typed-models/wire-common.js";
import { checkClassifierContext, checkImagesContext } from "./checks.js";
import { limiter, MAX_MODEL_CALLS } from "./globals.js";
import { addUsage } from "./usage-sum.js";

describe("the models global", () => {
  it("sums several calls' usage", () => {
    const luna = { cost: { input: 0.1, output: 0, cacheRead: 0, cacheWrite: 0 } } as TypedModel;
    const small = classifierUsage({ input_tokens: 1000, output_tokens: 0 }, luna)!;
    const large = classifierUsage({ input_tokens: 300_000 }, luna)!;
    expect(addUsage(addUsage(undefined, small), large)).toMatchObject({ input: 301_000, totalTokens: 301_000 });
    expect(addUsage(addUsage(undefined, small), large).cost.total).toBeCloseTo(0.0301, 12);
  });

  it("runs at most four calls at once, the rest in call order", async () => {
    const limit = limiter(MAX_MODEL_CALLS);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const calls = Array.from({ length: 10 }, (_, i) =>
      limit(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      }),
    );
    for (let released = 0; released < 10; released++) {
      while (releases.length <= released) await new Promise((resolve) => setImmediate(resolve));
      releases[released]!();
    }
    await Promise.all(calls);
    expect(most).toBe(4);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("checks a script's contexts and names what was expected", () => {
    expect(() => checkClassifierContext({ state: {}, questions: { q: { type: "score", instructions: "?", criteria: "low" } } })).toThrow(
      'context.questions.q is a "score" question, so criteria must list the levels as strings, lowest first',
    );
    expect(() => checkClassifierContext({ state: {}, images: [{ type: "image" }], questions: { q: {} } })).toThrow("context.images[0] must be an image block, got { type }");
    expect(() => checkImagesContext({ prompt: "fox" })).toThrow("models.generateImages() context.input must be a non-empty array of blocks, got undefined");
    expect(checkImagesContext({ input: [{ type: "text", text: "fox" }] })).toEqual({ input: [{ type: "text", text: "fox" }] });
  });
});
