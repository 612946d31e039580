/**
 * What pi serves to extensions beyond its packages' roots: TypeBox's validators under
 * `typebox/value` and `typebox/compile` (pi-mcp-adapter checks MCP tool arguments with `Check`,
 * pi-subagents compiles its parameters), from an extension folder with no `typebox` of its own.
 */
import { afterEach, expect, it } from "vitest";
import { bootExtensions, type Harness, uiRequests } from "../harness.test-support.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const notices = (h: Harness) => uiRequests(h.events, "notify").map((event) => (event as { message?: string }).message);

it("typebox/value and typebox/compile (and the @sinclair names) validate the schemas Type builds", async () => {
  const source = `
import { Type } from "typebox";
import { Check, Errors } from "typebox/value";
import { Compile } from "typebox/compile";
import { Value } from "@sinclair/typebox/value";
const Params = Type.Object({ n: Type.Integer({ minimum: 1 }), note: Type.Optional(Type.String()) });
const validator = Compile(Params);
export default function (pi) {
  pi.registerCommand("check", {
    handler: async (args, ctx) => {
      const value = JSON.parse(args);
      const errors = [...Errors(Params, value)].map((error) => error.instancePath + " " + error.message);
      ctx.ui.notify([Check(Params, value), validator.Check(value), Value.Check(Params, value), errors.join("; ")].join(" | "));
    },
  });
}
`;
  harness = await bootExtensions([{ source, name: "validates.ts" }]);
  expect(harness.events.filter((event) => event.type === "extension_error")).toEqual([]);
  await harness.run(`/check {"n": 2}`);
  await harness.run(`/check {"n": 0, "note": 5}`);
  expect(notices(harness)).toEqual(["true | true | true | ", expect.stringMatching(/^false \| false \| false \| \/n must be >= 1; \/note must be string$/)]);
});

it("pi-ai's thinking-level helpers (pi-web-access clamps its summary model's level)", async () => {
  const { clampThinkingLevel, getSupportedThinkingLevels, modelsAreEqual } = await import("./pi-ai.js");
  const base = {
    id: "m",
    name: "m",
    api: "x",
    provider: "p",
    baseUrl: "",
    input: ["text"] as "text"[],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1,
    maxTokens: 1,
  };
  expect(clampThinkingLevel({ ...base, reasoning: false }, "high")).toBe("off");
  expect(clampThinkingLevel({ ...base, reasoning: true, thinkingLevels: ["off", "low", "high"] }, "medium")).toBe("high");
  expect(clampThinkingLevel({ ...base, reasoning: true }, "xhigh")).toBe("high");
  // pi's thinkingLevelMap on a model an extension built: null removes a level, xhigh needs a mapping.
  const mapped = { ...base, reasoning: true, thinkingLevelMap: { minimal: null, xhigh: "max" } };
  expect(getSupportedThinkingLevels(mapped)).toEqual(["off", "low", "medium", "high", "xhigh"]);
  expect(clampThinkingLevel(mapped, "minimal")).toBe("low");
  expect(modelsAreEqual({ ...base, reasoning: false }, { ...base, reasoning: true })).toBe(true);
  expect(modelsAreEqual({ ...base, reasoning: false }, undefined)).toBe(false);
});
