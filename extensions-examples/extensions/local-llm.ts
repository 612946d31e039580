/**
 * Example extension: a custom provider. `registerProvider` adds an OpenAI-compatible server
 * (ollama, vLLM, llama.cpp, LM Studio, a proxy) to the model catalog; Atomic's own
 * openai-completions provider streams from it. Select it with `--provider local --model <id>`
 * or `{"type":"set_model","provider":"local","modelId":"<id>"}`.
 *
 *   LOCAL_LLM_URL    base URL with /v1 (default http://localhost:11434/v1, ollama)
 *   LOCAL_LLM_MODEL  model id (default llama3.2)
 *   LOCAL_LLM_KEY    API key, if the server wants one (the name of this variable is the config value)
 *
 * Install: copy into ~/.atomic/agent/extensions/.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const id = process.env.LOCAL_LLM_MODEL ?? "llama3.2";
  pi.registerProvider("local", {
    baseUrl: process.env.LOCAL_LLM_URL ?? "http://localhost:11434/v1",
    // A config value: an environment variable name, or a literal for servers that ignore keys.
    apiKey: process.env.LOCAL_LLM_KEY ? "LOCAL_LLM_KEY" : "no-key",
    api: "openai-completions",
    models: [
      {
        id,
        name: `${id} (local)`,
        reasoning: false,
        input: ["text"],
        contextWindow: 32_768,
        maxTokens: 4_096,
        // Most local servers know the "system" role only.
        compat: { supportsDeveloperRole: false },
      },
    ],
  });
}
