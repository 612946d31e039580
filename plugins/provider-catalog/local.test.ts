/** Which local servers a start asks for their models, and their base URL. */
import { describe, expect, it } from "vitest";
import type { KernelConfig } from "../../kernel/index.js";
import type { CatalogProvider } from "../../lib/model-catalog/index.js";
import type { ModelsApi } from "../models/api.js";
import { localBaseUrl, withApiPath } from "./discover.js";
import { localServersToAsk } from "./local.js";

const local = (provider: string, env: string): CatalogProvider => ({
  provider,
  name: provider,
  api: "openai-completions",
  baseUrl: `http://127.0.0.1:1/${provider}/v1`,
  local: { baseUrlEnv: env },
  source: { from: "test", checked: "2026-12-01" },
});
const PROVIDERS = [local("ollama", "OLLAMA_BASE_URL"), local("vllm", "VLLM_BASE_URL"), { ...local("groq", "X"), local: undefined }];
const config = (cli: KernelConfig["cli"], settings: KernelConfig["settings"] = {}, env: NodeJS.ProcessEnv = {}): KernelConfig =>
  ({ agentDir: "/a", cwd: "/c", cli, settings, env, trusted: false }) as KernelConfig;
const asked = (c: KernelConfig, modelsJson: string[] = []) => localServersToAsk(PROVIDERS, c, modelsJson).map((s) => `${s.provider.provider}${s.wanted ? "!" : ""}`);

describe("local servers to ask", () => {
  it("asks none by default: a start never waits on a server it does not use", () => {
    expect(asked(config({ positionals: [] }))).toEqual([]);
    expect(asked(config({ positionals: [], model: "anthropic/claude-opus-5-5" }))).toEqual([]);
  });

  it("asks a server named by --provider, a --model or --models reference, the saved default, or configured by URL", () => {
    expect(asked(config({ positionals: [], provider: "ollama" }))).toEqual(["ollama!"]);
    expect(asked(config({ positionals: [], model: "vllm/qwen3:8b" }))).toEqual(["vllm!"]);
    expect(asked(config({ positionals: [], models: "anthropic/*, ollama/llama3" }))).toEqual(["ollama!"]);
    expect(asked(config({ positionals: [] }, { defaultProvider: "vllm" }))).toEqual(["vllm!"]);
    expect(asked(config({ positionals: [] }, { enabledModels: ["ollama/*"] }))).toEqual(["ollama!"]);
    // A command-line model wins over the saved default: the default's server is not asked.
    expect(asked(config({ positionals: [], model: "groq/x" }, { defaultProvider: "vllm" }))).toEqual([]);
    expect(asked(config({ positionals: [] }, {}, { VLLM_BASE_URL: "http://gpu:8000" }))).toEqual(["vllm!"]);
    expect(asked(config({ positionals: [] }), ["ollama"])).toEqual(["ollama!"]);
  });

  it("--list-models asks every server, quietly unless it was named", () => {
    expect(asked(config({ positionals: [], listModels: true }))).toEqual(["ollama", "vllm"]);
    expect(asked(config({ positionals: [], listModels: true }, {}, { OLLAMA_BASE_URL: "http://x" }))).toEqual(["ollama!", "vllm"]);
  });

  it("offline (PI_OFFLINE or ATOMIC_OFFLINE), --list-models asks only the servers named or configured", () => {
    for (const offline of [{ PI_OFFLINE: "1" }, { ATOMIC_OFFLINE: "true" }]) {
      expect(asked(config({ positionals: [], listModels: true }, {}, offline))).toEqual([]);
      expect(asked(config({ positionals: [], listModels: true }, {}, { ...offline, OLLAMA_BASE_URL: "http://x" }))).toEqual(["ollama!"]);
    }
  });

  it("takes models.json's base URL, else the variable's (a bare host gets /v1), else the default", () => {
    const info = (baseUrl: string) => ({ providerInfo: () => ({ api: "openai-completions", baseUrl }) }) as unknown as ModelsApi;
    const ollama = PROVIDERS[0]!;
    expect(localBaseUrl(ollama, info("http://box:11434/v1"), { OLLAMA_BASE_URL: "http://env:1" })).toBe("http://box:11434/v1");
    expect(localBaseUrl(ollama, info(ollama.baseUrl), { OLLAMA_BASE_URL: "http://gpu-box:11434/" })).toBe("http://gpu-box:11434/v1");
    expect(localBaseUrl(ollama, info(ollama.baseUrl), {})).toBe(ollama.baseUrl);
    expect(withApiPath("http://h:8080/api/v1/")).toBe("http://h:8080/api/v1");
  });
});
