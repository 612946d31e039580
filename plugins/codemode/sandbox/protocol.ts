/**
 * The messages between the codemode host (the agent's thread) and a sandbox worker. Everything
 * the VM produces crosses as strings (JSON for values), so the host parses what it trusts.
 */

/** Limits a script lives within; past the output ones the script fails (see prelude.ts). */
export const LIMITS = {
  /** Characters of text and base64 image data one script may output. */
  outputChars: 16 * 1024 * 1024,
  /** `text()`, `image()` and `console.*` calls one script may make. */
  outputItems: 100_000,
  /** Characters of JSON one stored value may have. */
  storeValueChars: 256 * 1024,
  /** Characters of keys and JSON all stored values may have together. */
  storeTotalChars: 1024 * 1024,
  /** The VM's heap. */
  memoryBytes: 256 * 1024 * 1024,
} as const;

/**
 * A function in a host global's arguments crosses as `{ [FUNCTION_MARK]: true }` instead of
 * vanishing (JSON drops functions), so the host can refuse it by name rather than run without it.
 */
export const FUNCTION_MARK = "@codemode:function";

export type OutputItem = { type: "text"; text: string; console?: boolean } | { type: "image"; data: string; mimeType: string };

/** What a worker starts with (its workerData). */
export interface WorkerSetup {
  wasm: WebAssembly.Module;
  /** Int32 slot 0 set to 1: the VM's interrupt handler stops the script. */
  interrupt: SharedArrayBuffer;
}

/** One script for a worker. */
export interface RunRequest {
  type: "run";
  code: string;
  tools: { name: string; jsName: string; description: string }[];
  /** Host functions the script calls with spread arguments (`searchTools`, ...). */
  globals: string[];
  /** key -> JSON text. */
  store: Record<string, string>;
  memoryLimitBytes: number;
}

/** A call's answer: `ok` with its JSON (absent: undefined), or the error's message. */
export interface SettleMessage {
  type: "settle";
  id: number;
  ok: boolean;
  payload?: string;
}

/** `release`: the script is over; its VM goes and the worker waits for another. */
export type HostToWorker = RunRequest | SettleMessage | { type: "release" };

export type WorkerToHost =
  | { type: "call"; id: number; target: "tool" | "global"; name: string; args?: string }
  | { type: "output"; item: OutputItem }
  | { type: "done"; ok: true; value?: string; writes: string }
  | { type: "done"; ok: false; error: string }
  /** The VM itself failed (not the script): a trap, a broken bridge. */
  | { type: "crash"; message: string }
  /** The worker finished a script and can take another. */
  | { type: "idle" };

/** How a script ended badly, as the result reports it. */
export interface ScriptError {
  kind: "script" | "timeout" | "aborted" | "sandbox";
  name?: string;
  message: string;
  stack?: string;
}
