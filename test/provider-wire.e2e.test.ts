/**
 * Wire facts only the built (bundled) CLI shows, against the loopback fake over real HTTP
 * (issue 36): the openai SDK's User-Agent names the SDK, not the bundler's renamed class (D11);
 * a hand-written Anthropic-compatible provider sends its key in `x-api-key` with API version
 * `2023-06-01`, as pi does, while Anthropic itself keeps the SDK's bearer header (D14).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const OPENAI_VERSION = (JSON.parse(readFileSync(new URL("../node_modules/openai/package.json", import.meta.url), "utf8")) as { version: string }).version;
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

async function ask(model: string, edit?: (providers: Record<string, Record<string, unknown>>) => void) {
  const agentDir = tempDir();
  const file = await writeModelsJson(agentDir, fake.url);
  if (edit) {
    const json = JSON.parse(readFileSync(file, "utf8")) as { providers: Record<string, Record<string, unknown>> };
    edit(json.providers);
    writeFileSync(file, JSON.stringify(json));
  }
  fake.requests.length = 0;
  const run = await runCli(["-p", "hi", "--model", model, "--no-session"], { cwd: agentDir, agentDir, env: NO_KEYS });
  expect(run.code, run.stderr).toBe(0);
  return fake.requests[0]!;
}

describe("the built CLI on the wire", () => {
  it.each(["fake-openai/fake-1", "fake-responses/fake-1"])("%s: User-Agent OpenAI/JS <sdk version> (D11)", async (model) => {
    const request = await ask(model);
    expect(request.headers["user-agent"]).toBe(`OpenAI/JS ${OPENAI_VERSION}`);
  });

  it("a models.json User-Agent still wins", async () => {
    const request = await ask("fake-openai/fake-1", (providers) => {
      providers["fake-openai"]!.headers = { "User-Agent": "team-proxy/1" };
    });
    expect(request.headers["user-agent"]).toBe("team-proxy/1");
  });

  it("a hand-written Anthropic-compatible provider: x-api-key and 2023-06-01, no bearer header (D14)", async () => {
    const request = await ask("fake-anthropic/fake-1");
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("test-key");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
  });

  it("its compat can ask for the bearer header and another version", async () => {
    const request = await ask("fake-anthropic/fake-1", (providers) => {
      providers["fake-anthropic"]!.compat = { apiKeyHeader: "authorization", anthropicVersion: "2024-01-01" };
    });
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.headers["x-api-key"]).toBeUndefined();
    expect(request.headers["anthropic-version"]).toBe("2024-01-01");
  });

  it("Anthropic itself, re-pointed: the SDK's bearer header and version", async () => {
    const agentDir = tempDir();
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
    fake.requests.length = 0;
    const run = await runCli(["-p", "hi", "--model", "anthropic/claude-opus-5-5", "--no-session"], { cwd: agentDir, agentDir, env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-ant" } });
    expect(run.code, run.stderr).toBe(0);
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-ant");
    expect(fake.requests[0]!.headers["anthropic-version"]).not.toBe("2023-06-01");
  });
});
