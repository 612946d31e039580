/**
 * Atomic as an installed package: `npm pack` the repository, unpack it into a temporary project
 * outside the repository (its dependencies linked from ours: no network), type-check a plugin
 * written against `atomic-agent` there with the project's own tsconfig, compile it, and load it
 * with the installed CLI, which resolves `atomic-agent` to the installed package.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { agentTempDir, RpcClient, tempDir } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

const REPO = resolve(import.meta.dirname, "..");
const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");
let project: string;
let compileError: string | undefined;

const PLUGIN = `import { z } from "zod";
import { defineCommand, definePlugin, defineSetting, type PluginContext } from "atomic-agent";
// The built-in plugins' types: k.service("agent") and settings such as \`retry\` are typed.
import type {} from "atomic-agent/plugins";

declare module "atomic-agent" {
  interface Settings {
    greeter?: { greeting: string };
  }
  interface EventMap {
    greeted: { name: string };
  }
}

export default definePlugin({
  name: "greeter",
  requires: ["agent"],
  settings: { greeter: defineSetting(() => z.object({ greeting: z.string() }), { description: "How to greet." }) },
  apply(k: PluginContext) {
    k.registerEvent("greeted", () => z.object({ name: z.string() }));
    const greeting = k.config.settings.greeter?.greeting ?? "Hello";
    k.registerCommand(
      defineCommand({
        name: "greet",
        input: () => z.object({ name: z.string() }),
        output: () => z.object({ text: z.string(), messages: z.number(), retries: z.number() }),
        run: ({ name }) => {
          k.events.emit("greeted", { name });
          const retries = k.config.settings.retry?.maxRetries ?? 3;
          return { text: \`\${greeting}, \${name}!\`, messages: k.service("agent").getMessages().length, retries };
        },
      }),
    );
    k.hooks.agent_start.tap({ name: k.name, order: "post" }, () => undefined);
  },
});
`;

/** A provider plugin on the toolkit: its frame and stream builder, loaded lazily as the built-ins do. */
const PROVIDER = `import { definePlugin, type Model } from "atomic-agent";
import { lazyProviderStream } from "atomic-agent/provider-kit";
import type {} from "atomic-agent/plugins";
import type { ProviderBody } from "atomic-agent/provider-kit/adapter";

const API = "echo-api";
const model: Model = {
  id: "echo-1", name: "Echo", api: API, provider: "echo", baseUrl: "local", reasoning: false, input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000,
};

/** Answers with the last user message, reversed, in two deltas (handed over as one lazy batch). */
const body: ProviderBody = async function* ({ request, builder }) {
  const last = request.context.messages.at(-1);
  const text = typeof last?.content === "string" ? [...last.content].reverse().join("") : "?";
  yield builder.start();
  yield (function* () {
    yield builder.textStart("t");
    yield builder.textDelta("t", text.slice(0, 2));
    yield builder.textDelta("t", text.slice(2));
    yield builder.end("t");
  })();
  yield builder.done("stop");
};

export default definePlugin({
  name: "echo-provider",
  requires: ["models"],
  apply(k) {
    const models = k.service("models");
    models.registerProvider({ name: "echo", api: API, models: [model], requiresAuth: false });
    k.hooks.stream.for(API).tap(k.name, (request) => lazyProviderStream(models, request, async () => body, { requiresKey: false }));
  },
});
`;

const TYPE_ERRORS = `import { definePlugin } from "atomic-agent";
export default definePlugin({
  name: "broken",
  apply(k) {
    // @ts-expect-error a plugin may tap a hook but not call it
    void k.hooks.tool_call.promise({ toolCallId: "1", toolName: "x", input: {} });
    // @ts-expect-error an event nobody declared
    k.events.emit("no_such_event", {});
  },
});
`;

/** An embedder's program on the SDK: typed commands and events, one prompt in-process, the answer as JSON on stdout. */
const USE_SDK = `import { createAgent, type AgentEvent } from "atomic-agent/sdk";
import echo from "./echo-provider.js";

const agent = await createAgent({ cwd: process.cwd(), agentDir: process.argv[2]!, provider: "echo", model: "echo-1", session: false, plugins: [echo] });
const types: string[] = [];
const ended = new Promise<void>((resolve) => agent.subscribe((event: AgentEvent) => { types.push(event.type); if (event.type === "agent_end") resolve(); }));
// @ts-expect-error commands are typed: a message is a string
void agent.send({ type: "prompt", message: 1 });
const accepted = await agent.send({ type: "prompt", message: "stressed" });
await ended;
const answer = await agent.send({ type: "get_last_assistant_text" });
await agent.dispose();
process.stdout.write(JSON.stringify({ accepted, text: answer?.success ? answer.data.text : null, types }));
`;

/** A client program: the installed package's own CLI by default, pi's method names. */
const USE_CLIENT = `import { RpcClient } from "atomic-agent/client";

const client = new RpcClient({ cwd: process.cwd(), env: { ATOMIC_CODING_AGENT_DIR: process.argv[2]! }, provider: "echo", model: "echo-1", args: ["--no-session"] });
await client.start();
const events = await client.promptAndWait("drawer");
const text: string | null = await client.getLastAssistantText();
await client.stop();
process.stdout.write(JSON.stringify({ text, last: events.at(-1)?.type }));
`;

/** npm, tsc (their compile cache on Node >= 22) and the compiled programs keep their temp files in this file's folder. */
const TOOL_ENV = { ...process.env, TMPDIR: agentTempDir() };

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "atomic-pkg-"));
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", project], { cwd: REPO, env: TOOL_ENV, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "atomic-agent"), { recursive: true });
  execFileSync("tar", ["-xzf", join(project, packed), "-C", join(modules, "atomic-agent"), "--strip-components=1"]);
  // The package's own dependencies (and TypeScript), linked from the repository's install.
  for (const entry of readdirSync(join(REPO, "node_modules"))) {
    if (entry === ".bin" || entry === "atomic-agent") continue;
    symlinkSync(join(REPO, "node_modules", entry), join(modules, entry));
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-plugins", type: "module", private: true }));
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, outDir: "out", types: ["node"] },
      include: ["*.ts"],
    }),
  );
  writeFileSync(join(project, "greeter.ts"), PLUGIN);
  writeFileSync(join(project, "broken.ts"), TYPE_ERRORS);
  writeFileSync(join(project, "echo-provider.ts"), PROVIDER);
  writeFileSync(join(project, "use-sdk.ts"), USE_SDK);
  writeFileSync(join(project, "use-client.ts"), USE_CLIENT);
  // Compiled here, not in a test: the tests run in any order and several need the output.
  try {
    execFileSync(process.execPath, [TSC, "-p", project], { cwd: project, env: TOOL_ENV, encoding: "utf8" });
  } catch (error) {
    compileError = `tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`;
  }
}, 180_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("type-checks and compiles a plugin, an SDK program and a client program outside the repository (and rejects misuse at compile time)", () => {
    expect(compileError).toBeUndefined();
    expect(readdirSync(join(project, "out")).sort()).toEqual(["broken.js", "echo-provider.js", "greeter.js", "use-client.js", "use-sdk.js"]);
  });

  it("publishes a short root API and no wildcard subpaths", () => {
    const installed = join(project, "node_modules", "atomic-agent");
    const entry = join(installed, "dist", "index.d.ts");
    const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
    const checker = program.getTypeChecker();
    const names = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!).map((symbol) => symbol.name);
    expect(names).toContain("definePlugin");
    expect(names.length).toBeLessThanOrEqual(60);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports).filter((path) => path.includes("*"))).toEqual([]);
  });

  it("ships docs/, so the README's links work for npm users", () => {
    const installed = join(project, "node_modules", "atomic-agent");
    const readme = readFileSync(join(installed, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]!);
    expect(linked).toContain("docs/protocol.md");
    for (const path of new Set(linked)) expect(existsSync(join(installed, path)), path).toBe(true);
  });

  it("atomic-agent/sdk runs a prompt in the embedder's process", () => {
    expect(compileError).toBeUndefined();
    const agentDir = tempDir("atomic-agent-");
    const output = execFileSync(NODE, [join(project, "out", "use-sdk.js"), agentDir], { cwd: project, env: TOOL_ENV, encoding: "utf8" });
    const result = JSON.parse(output) as { accepted: unknown; text: string; types: string[] };
    expect(result.accepted).toEqual({ type: "response", command: "prompt", success: true, data: { disposition: "started" } });
    expect(result.text).toBe("desserts");
    expect(result.types).toEqual(expect.arrayContaining(["agent_start", "message_update", "agent_end"]));
  }, 60_000);

  it("atomic-agent/client drives the installed package's own CLI by default", () => {
    expect(compileError).toBeUndefined();
    const agentDir = tempDir("atomic-agent-");
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ plugins: [join(project, "out", "echo-provider.js")] }));
    const output = execFileSync(NODE, [join(project, "out", "use-client.js"), agentDir], { cwd: project, env: TOOL_ENV, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({ text: "reward", last: "agent_end" });
  }, 60_000);

  it("the installed CLI loads the compiled plugin, which imports the installed kernel", async () => {
    expect(compileError).toBeUndefined();
    const agentDir = tempDir("atomic-agent-");
    const c = new RpcClient({
      agentDir,
      cwd: project,
      settings: { plugins: [join(project, "out", "greeter.js"), join(project, "out", "echo-provider.js")], greeter: { greeting: "Ahoy" } },
      args: ["--mode", "rpc", "--no-session"],
      cli: join(project, "node_modules", "atomic-agent", "dist", "cli", "atomic.cjs"),
    });
    try {
      expect(await c.ok({ type: "greet", name: "Ada" })).toEqual({ text: "Ahoy, Ada!", messages: 0, retries: 3 });
      expect(c.records.find((r) => r.type === "greeted")).toEqual({ type: "greeted", name: "Ada" });
      await c.ok({ type: "set_model", provider: "echo", modelId: "echo-1" });
      await c.ok({ type: "prompt", message: "stressed" });
      await c.waitForEvent("agent_end");
      expect(await c.ok({ type: "get_last_assistant_text" })).toEqual({ text: "desserts" });
    } finally {
      await c.close();
      await rm(agentDir, { recursive: true, force: true });
    }
  }, 60_000);
});
