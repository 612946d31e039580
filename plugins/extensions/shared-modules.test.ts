/**
 * Extension modules are per process scope: a host and its siblings evaluate an extension file
 * once and run its factory once each; what the module imported from pi's packages acts for the
 * agent whose code is running. An independent host evaluates it again.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost, type HostRuntime } from "../../host/index.js";
import { definePlugin } from "../../kernel/index.js";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent } from "../../lib/llm/index.js";
import { MODEL } from "./harness.test-support.js";
import type { ExtensionHost } from "./host.js";
import { SharedModules } from "./load-module.js";

const STATE = Symbol.for("atomic.test.shared-modules");
interface State {
  evaluated: number;
  factories: number;
  answers: string[];
}

const EXTENSION = `
import { complete, getModel } from "@earendil-works/pi-ai";
const key = Symbol.for("atomic.test.shared-modules");
const state = globalThis[key].current;
state.evaluated++;
export default function (pi) {
  state.factories++;
  pi.registerCommand("whoami", {
    handler: async () => {
      const answer = await complete(getModel("scripted", "m1"), { messages: [{ role: "user", content: "who?", timestamp: 0 }] });
      state.answers.push(answer.content.map((part) => part.text ?? "").join(""));
    },
  });
}
`;

/** Answers every call with the folder of the agent that made it. */
const scripted = definePlugin({
  name: "scripted",
  requires: ["models"],
  apply(k) {
    k.service("models").registerProvider({ name: "scripted", api: "scripted", models: [MODEL], requiresAuth: false });
    k.hooks.stream.for("scripted").tap(k.name, () =>
      (async function* (): AsyncGenerator<AssistantMessageEvent> {
        const message: AssistantMessage = {
          role: "assistant",
          content: [{ type: "text", text: `answered in ${k.config.cwd}` }],
          api: "scripted",
          provider: "scripted",
          model: "m1",
          usage: emptyUsage(),
          stopReason: "stop",
          timestamp: Date.now(),
        };
        yield { type: "start", partial: { ...message, content: [] } };
        yield { type: "done", reason: "stop", message, partial: message };
      })(),
    );
  },
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup() {
  const root = mkdtempSync(join(tmpdir(), "atomic-shared-modules-"));
  const state: State = { evaluated: 0, factories: 0, answers: [] };
  ((globalThis as Record<symbol, Record<string, State>>)[STATE] ??= {}).current = state;
  const extension = join(root, "whoami.ts");
  writeFileSync(extension, EXTENSION);
  const folders = ["a", "b", "c"].map((name) => join(root, name));
  for (const folder of folders) mkdirSync(folder);
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const boot = async () => {
    const host = await createHost({
      cwd: root,
      agentDir: root,
      env: {},
      plugins: [...BUILTIN_PLUGINS, scripted],
      cli: { extension: [extension], provider: "scripted", model: "m1", noSession: true },
      readSettingsFiles: false,
      userPlugins: false,
      log: { info() {}, warn() {}, error() {} },
    });
    cleanups.push(() => host.shutdown("exit"));
    return host;
  };
  const open = async (host: HostRuntime, cwd: string) => {
    const sibling = await host.openSibling({ cwd });
    cleanups.push(() => sibling.shutdown("exit"));
    return sibling;
  };
  const whoami = async (host: { send: HostRuntime["send"] }) => {
    const response = await host.send({ type: "prompt", message: "/whoami" });
    expect(response).toMatchObject({ success: true });
    return state.answers.at(-1);
  };
  return { root, state, extension, folders, boot, open, whoami };
}

describe("extension modules shared by sibling agents", () => {
  it("evaluates the module once for a host and its siblings, and runs the factory for each", async () => {
    const { state, folders, boot, open } = setup();
    const host = await boot();
    for (const folder of folders) await open(host, folder);
    expect(state.factories).toBe(4);
    expect(state.evaluated).toBe(1);
    // Another host of the process is not a sibling: it evaluates the file itself.
    await boot();
    expect(state.evaluated).toBe(2);
  });

  it("what the module imported acts for the agent whose code runs it", async () => {
    const { root, folders, boot, open, whoami } = setup();
    const host = await boot();
    const [a, b] = [await open(host, folders[0]!), await open(host, folders[1]!)];
    expect(await whoami(b)).toBe(`answered in ${folders[1]}`);
    expect(await whoami(host)).toBe(`answered in ${root}`);
    expect(await whoami(a)).toBe(`answered in ${folders[0]}`);
  });

  it("a sibling that goes leaves the module to the others; a changed file is evaluated again for later siblings", async () => {
    const { root, state, extension, folders, boot, open, whoami } = setup();
    const host = await boot();
    const a = await open(host, folders[0]!);
    await a.shutdown("exit");
    expect(await whoami(host)).toBe(`answered in ${root}`);
    await open(host, folders[1]!);
    expect(state.evaluated).toBe(1);
    writeFileSync(extension, `${EXTENSION}\n// edited\n`);
    utimesSync(extension, new Date(), new Date(Date.now() + 5_000));
    const c = await open(host, folders[2]!);
    expect(state.evaluated).toBe(2);
    expect(await whoami(c)).toBe(`answered in ${folders[2]}`);
  });
});

describe("SharedModules.current", () => {
  const agent = (name: string) => ({ name }) as unknown as ExtensionHost;

  it("is the agent whose code runs, else the only agent; with several and none running, a clear error", () => {
    const modules = new SharedModules("/agent", async () => "1.0.0");
    const [one, two] = [agent("one"), agent("two")];
    modules.attach(one);
    expect(modules.current("getModel()")).toBe(one);
    modules.attach(two);
    expect(modules.enter(two, () => modules.current("getModel()"))).toBe(two);
    expect(() => modules.current("getModel()")).toThrow("getModel() was called outside an extension's handler, tool or command while 2 agents share this process");
    modules.detach(one);
    expect(modules.current("getModel()")).toBe(two);
  });
});
