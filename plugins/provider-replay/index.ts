/**
 * Plugin `provider-replay`: the offline default. Provider `replay`, one model per cassette
 * (`replay/demo` bundled, user cassettes in `<agent dir>/cassettes/<name>.jsonl`). No network,
 * no key; used only when selected. The n-th LLM call of a run replays the n-th recorded turn.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { definePlugin, type AssistantMessageEvent, type Model, type StreamRequest } from "../../kernel/index.js";
import type { Cassette } from "./cassette.js";

export const REPLAY_API = "replay";
/** Bundled cassettes ship in the package source tree (not in dist/), found through the install dir. */
const BUNDLED_SUBDIR = join("plugins", "provider-replay", "cassettes");

export default definePlugin({
  name: "provider-replay",
  dependsOn: ["models"],
  description: "Replays recorded model streams (cassettes): the offline default provider.",
  async apply(k) {
    const sources = new Map<string, string>();
    const userDir = join(k.config.agentDir, "cassettes");
    const bundledDir = k.config.installDir ? join(k.config.installDir, BUNDLED_SUBDIR) : undefined;
    for (const dir of bundledDir ? [bundledDir, userDir] : [userDir]) {
      for (const file of await listCassettes(dir)) sources.set(file.slice(0, -".jsonl".length), join(dir, file));
    }
    k.service("models").registerProvider({
      name: "replay",
      api: REPLAY_API,
      requiresAuth: false,
      models: [...sources.keys()].map(replayModel),
    });

    const loaded = new Map<string, Promise<Cassette>>();
    k.hooks.stream.for(REPLAY_API).tap(k.name, (request) => {
      const path = sources.get(request.model.id);
      if (!path) return undefined;
      let cassette = loaded.get(path);
      if (!cassette) {
        cassette = import("./cassette.js").then((m) => m.readCassette(request.model.id, path));
        loaded.set(path, cassette);
      }
      return replay(cassette, request);
    });
  },
});

async function* replay(cassette: Promise<Cassette>, request: StreamRequest): AsyncGenerator<AssistantMessageEvent> {
  const [{ replayTurn }, tape] = await Promise.all([import("./replay-stream.js"), cassette]);
  yield* replayTurn(tape, request.model, request);
}

async function listCassettes(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
}

function replayModel(id: string): Model {
  return {
    id,
    name: `Replay: ${id}`,
    api: REPLAY_API,
    provider: "replay",
    baseUrl: "",
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200_000,
    maxTokens: 16_384,
  };
}
