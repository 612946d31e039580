/**
 * The provider request hooks over real SDKs and real HTTP (kernel contract: before_provider_headers,
 * before_provider_request, after_provider_response): a tap adds and removes headers, rewrites the
 * payload the SDK built, and sees the response status, for each wire format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definePlugin, type Kernel } from "../../kernel/index.js";
import type { Model } from "../../lib/llm/index.js";
import { bootKernel, removeDir, runStream, streamRequest, tempDir, VENDOR_PLUGINS } from "./harness.js";
import { startFakeLlm, writeModelsJson, type FakeLlm } from "./server.js";

let fake: FakeLlm;
let agentDir: string;
let kernel: Kernel;
const seen: { status: number; provider: string }[] = [];

const tapper = definePlugin({
  name: "request-tapper",
  apply(k) {
    k.hooks.before_provider_headers.tap(k.name, ({ headers }) => {
      headers["x-extension"] = "hello";
      // Remove one of the SDK's own headers, whatever its case.
      for (const name of Object.keys(headers)) if (name.toLowerCase() === "x-stainless-lang") headers[name] = null;
    });
    k.hooks.before_provider_request.tap(k.name, (event) => ({ ...event, payload: { ...(event.payload as object), metadata_from_hook: { ok: true } } }));
    k.hooks.after_provider_response.tap(k.name, ({ status, model }) => void seen.push({ status, provider: model.provider }));
  },
});

beforeAll(async () => {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
  kernel = await bootKernel({ agentDir, plugins: [...VENDOR_PLUGINS, tapper] });
});
afterAll(async () => {
  await fake.close();
  await removeDir(agentDir);
});

describe.each(["fake-anthropic", "fake-openai", "fake-responses", "fake-google"])("request hooks through %s", (provider) => {
  it("edit headers and payload, and see the response", async () => {
    const model = kernel.services.get("models").find(provider, "fake-1") as Model;
    expect(model, `models.json lists ${provider}`).toBeDefined();
    fake.script({ text: "ok" });
    const before = fake.requests.length;
    seen.length = 0;
    const { final } = await runStream(kernel, streamRequest(model));
    expect(final.type).toBe("done");
    const request = fake.requests[before]!;
    expect(request.headers["x-extension"]).toBe("hello");
    expect(request.headers["x-stainless-lang"]).toBeUndefined();
    expect(request.body.metadata_from_hook).toEqual({ ok: true });
    expect(seen).toEqual([{ status: 200, provider }]);
  });
});
