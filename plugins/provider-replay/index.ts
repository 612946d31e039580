/**
 * Plugin `provider-replay`: the offline default. Provider `replay`, one model per cassette
 * (`replay/demo` bundled, user cassettes in `<agent dir>/cassettes/<name>.jsonl`). No network,
 * no key; used only when selected. The n-th LLM call of a run replays the n-th recorded turn.
 * `--record <name>` writes such a cassette from live provider streams.
 */
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { batchedAssistantStream, type AssistantStream, type Model, type StreamRequest } from "../../lib/llm/index.js";
import { definePlugin, type CliOptions } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import type { Cassette } from "./cassette.js";
import { installRecorder } from "./record.js";

export const REPLAY_API = "replay";
/** Bundled cassettes ship in the package source tree (not in dist/), found through the install dir. */
const BUNDLED_SUBDIR = join("plugins", "provider-replay", "cassettes");

declare module "../../kernel/config.js" {
  interface CliOptions {
    record?: string;
  }
}

export default definePlugin({
  name: "provider-replay",
  requires: ["models"],
  flags: [{ name: "--record", key: "record", value: "<cassette>", description: "Record every model stream into <agent dir>/cassettes/<cassette>.jsonl for offline replay." }],
  description: "Replays recorded model streams (cassettes): the offline default provider; records them with --record.",
  async apply(k) {
    installRecorder(k);
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
      models: await Promise.all([...sources].map(async ([id, path]) => replayModel(id, await readHeaderHints(path)))),
    });

    const loaded = new Map<string, Promise<Cassette>>();
    k.hooks.stream.for(REPLAY_API).tap(k.name, (request) => {
      const path = sources.get(request.model.id);
      // An id the catalog does not list still resolves (to demo's settings, with a warning), as
      // for any provider: its turn fails saying what is there and how to record it.
      if (!path) return failingStream(noCassette(request.model.id, [...sources.keys()], userDir, k.config.cli));
      let cassette = loaded.get(path);
      if (!cassette) {
        cassette = import("./cassette.js").then((m) => m.readCassette(request.model.id, path));
        loaded.set(path, cassette);
      }
      return replay(cassette, request);
    });
  },
});

function noCassette(id: string, known: readonly string[], userDir: string, cli: CliOptions): string {
  const recorded = known.length > 0 ? `the replay models are ${known.join(", ")}` : "there are no cassettes";
  const record = optionName(cli, `--record ${id}`, `flags: { record: "${id}" }`);
  return `No cassette for replay model "${id}": ${recorded}. Record one with a real provider and ${record} (written to ${join(userDir, `${id}.jsonl`)}).`;
}

/** A stream that fails when read (not before: a stream never read must not leave a rejection). */
function failingStream(message: string): AssistantStream {
  return batchedAssistantStream(() => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error(message)) }) }));
}

function replay(cassette: Promise<Cassette>, request: StreamRequest): AssistantStream {
  return batchedAssistantStream(async function* replayBatches() {
    const [{ replayTurnBatches }, tape] = await Promise.all([import("./replay-stream.js"), cassette]);
    yield* replayTurnBatches(tape, request.model, request);
  });
}

async function listCassettes(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
}

interface HeaderHints {
  reasoning?: boolean;
  contextWindow?: number;
}

/**
 * The model-shaping fields of a cassette header (`reasoning`, `contextWindow`), read from the
 * file's first line only: the events are parsed when the cassette is first played.
 */
async function readHeaderHints(path: string): Promise<HeaderHints> {
  let handle;
  try {
    handle = await open(path, "r");
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const firstLine = buffer.toString("utf8", 0, bytesRead).split("\n", 1)[0]!;
    const header = JSON.parse(firstLine) as Record<string, unknown>;
    return {
      ...(typeof header.reasoning === "boolean" ? { reasoning: header.reasoning } : {}),
      ...(typeof header.contextWindow === "number" && header.contextWindow > 0 ? { contextWindow: header.contextWindow } : {}),
    };
  } catch {
    return {};
  } finally {
    await handle?.close();
  }
}

function replayModel(id: string, hints: HeaderHints): Model {
  return {
    id,
    name: `Replay: ${id}`,
    api: REPLAY_API,
    provider: "replay",
    baseUrl: "",
    reasoning: hints.reasoning ?? false,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: hints.contextWindow ?? 200_000,
    maxTokens: 16_384,
  };
}
