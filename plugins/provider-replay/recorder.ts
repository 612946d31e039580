/**
 * Records live provider streams into a cassette the offline `provider-replay` plugin can play
 * back. JSONL: a header line, then per LLM call `{"type":"turn"}` and one line per unified event
 * without its `partial`. Plugin-independent: it wraps any AssistantStream.
 */
import { appendFile, chmod, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AssistantMessageEvent, AssistantStream, Model } from "../../lib/llm/index.js";
import { makeFolder } from "../../lib/make-folder/index.js";

export function cassettePath(agentDir: string, name: string): string {
  return join(agentDir, "cassettes", `${name}.jsonl`);
}

/** A cassette name is a file name: letters, digits, dot, dash and underscore. */
export function isValidCassetteName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name);
}

export class CassetteRecorder {
  readonly path: string;
  readonly name: string;
  #started = false;
  /** Appends are chained so turns land whole and in the order their streams finished. */
  #writes: Promise<void> = Promise.resolve();
  readonly #onError: (error: unknown) => void;

  constructor(path: string, name: string, onError: (error: unknown) => void = () => {}) {
    this.path = path;
    this.name = name;
    this.#onError = onError;
  }

  /** Passes `stream` through unchanged and appends its events as one turn when it ends. */
  record(model: Model, stream: AssistantStream): AssistantStream {
    const recorder = this;
    return (async function* recorded() {
      const lines: string[] = [JSON.stringify({ type: "turn" })];
      let ended = false;
      try {
        for await (const event of stream) {
          const line = toCassetteEvent(event);
          if (line) lines.push(JSON.stringify(line));
          if (event.type === "done" || event.type === "error") ended = true;
          yield event;
        }
      } finally {
        // A consumer that stops early leaves a turn without an ending; replay needs one.
        if (!ended) lines.push(JSON.stringify({ type: "error", reason: "aborted", errorMessage: "Request was aborted" }));
        recorder.#append(model, lines);
      }
    })();
  }

  /** Resolves once everything recorded so far is on disk. */
  flush(): Promise<void> {
    return this.#writes;
  }

  #append(model: Model, lines: string[]): void {
    this.#writes = this.#writes
      .then(async () => {
        if (!this.#started) {
          this.#started = true;
          // Private, like auth.json and sessions: a cassette holds the whole conversation.
          await makeFolder(dirname(this.path), 0o700);
          const header = { type: "cassette", version: 1, name: this.name, eventDelayMs: 0, reasoning: model.reasoning, contextWindow: model.contextWindow };
          await writeFile(this.path, JSON.stringify(header) + "\n", { mode: 0o600 });
          await chmod(this.path, 0o600);
        }
        await appendFile(this.path, lines.join("\n") + "\n");
      })
      .catch((error: unknown) => this.#onError(error));
  }
}

/** One unified event as a cassette line: no `partial`, no `start`, terminal events flattened. */
export function toCassetteEvent(event: AssistantMessageEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case "start":
      return undefined;
    case "toolcall_start": {
      const block = event.partial.content[event.contentIndex];
      const call = block?.type === "toolCall" ? block : undefined;
      return { type: event.type, contentIndex: event.contentIndex, id: call?.id ?? "", name: call?.name ?? "" };
    }
    case "toolcall_end":
      return { type: event.type, contentIndex: event.contentIndex, toolCall: { ...event.toolCall } };
    case "done": {
      const { input, output, cacheRead, cacheWrite } = event.message.usage;
      return { type: "done", reason: event.reason, usage: { input, output, cacheRead, cacheWrite } };
    }
    case "error":
      return { type: "error", reason: event.reason, errorMessage: event.error.errorMessage ?? "Unknown error" };
    default: {
      const { partial: _partial, ...rest } = event;
      return rest;
    }
  }
}
