/**
 * What a first prompt loads of Node itself, through the built CLI and the official SDKs over HTTP
 * to the fake LLM. Both SDKs read `globalThis.ReadableStream` (and Anthropic's reads every
 * response's `body`), and either would load Node's web streams, as `Headers` and `FormData` would
 * load undici on Node 20: a few milliseconds of every cold start that a JSON request and an SSE
 * reply never use (scripts/bundle.mjs, lib/provider-kit/sdk-globals.ts, deferred-web-body.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) client.child.kill("SIGKILL");
});

/** The Node modules the agent process had loaded when it exited, after one prompt. */
async function modulesAfterOnePrompt(model: string): Promise<string[]> {
  const dir = tempDir("atomic-builtins-");
  const preload = join(dir, "record-modules.cjs");
  const out = join(dir, "modules.json");
  writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`);
  const agentDir = tempDir();
  await writeModelsJson(agentDir, fake.url);
  fake.script({ text: "Hello there." });
  const client = new RpcClient({
    agentDir,
    args: ["--mode", "rpc", "--no-session", "--model", model],
    env: { NODE_OPTIONS: `--require ${preload}`, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
  });
  clients.push(client);
  await client.ok({ type: "prompt", message: "Say hello." });
  await client.waitForEvent("agent_end");
  expect(await client.ok({ type: "get_last_assistant_text" })).toEqual({ text: "Hello there." });
  await client.close();
  return (JSON.parse(readFileSync(out, "utf8")) as string[]).filter((name) => name.startsWith("NativeModule "));
}

describe("a first prompt's Node builtins", () => {
  for (const model of ["fake-openai/fake-1", "fake-anthropic/fake-1"]) {
    it(`${model}: the request and its streamed answer load neither web streams nor undici`, async () => {
      const loaded = await modulesAfterOnePrompt(model);
      expect(loaded).toContain("NativeModule http");
      // (webstreams/util and queuingstrategies are part of every Node's own start.)
      expect(loaded.filter((name) => /internal\/webstreams\/(readable|writable|transform)stream|internal\/deps\/undici/.test(name))).toEqual([]);
    });
  }
});
