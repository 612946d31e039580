/**
 * Per-run controls over the built CLI, checked where they land: on the wire of the loopback fake
 * LLM (system prompt, tools, the key), in get_state (thinking level) and in cycle_model (the scope,
 * the replay rule). Every mistake exits 2 with its exact message.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const dirs: string[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterAll(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
});

function folders(): { agentDir: string; cwd: string } {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  dirs.push(agentDir, cwd);
  return { agentDir, cwd };
}

async function start(args: string[], settings?: Record<string, unknown>): Promise<RpcClient> {
  const { agentDir, cwd } = folders();
  await writeModelsJson(agentDir, fake.url);
  const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session", ...args], env: NO_KEYS, ...(settings ? { settings } : {}) });
  clients.push(client);
  return client;
}

async function promptOnce(c: RpcClient): Promise<Record<string, any>> {
  fake.script({ text: "ok" });
  expect(await c.request({ type: "prompt", message: "hi" })).toMatchObject({ success: true });
  await c.waitForEvent("agent_end");
  return fake.requests.at(-1)!.body as Record<string, any>;
}

/** A user plugin with a flag of its own, and one it registers while loading as an extension would. */
const FLAG_PROBE_PLUGIN = `
import { z } from "zod";
import { defineCommand, definePlugin } from "atomic-agent";
export default definePlugin({
  name: "flag-probe",
  flags: [{ name: "--house-style", key: "houseStyle", value: "<name>", description: "House style for this run." }],
  apply(k) {
    k.openLayer("late-extension").registerFlag({ name: "--plan", key: "plan", description: "Plan first." });
    k.registerCommand(defineCommand({
      name: "flag_probe",
      input: () => z.object({}),
      output: () => z.object({ houseStyle: z.string().optional(), plan: z.boolean().optional() }),
      run: () => ({ houseStyle: k.config.cli.houseStyle, plan: k.config.cli.plan }),
    }));
  },
});
`;

/** A CLI run that must fail with exit 2 and exactly this one stderr line. */
async function usageError(args: string[], line: string): Promise<void> {
  const { agentDir, cwd } = folders();
  await writeModelsJson(agentDir, fake.url);
  const run = await runCli(args, { agentDir, cwd, env: NO_KEYS });
  expect(run.stderr).toBe(`atomic: ${line}\n`);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
}

describe("system prompt flags", () => {
  it("--system-prompt replaces the persona and tool list; --append-system-prompt follows it", async () => {
    const c = await start(["--model", "fake-openai/fake-1", "--system-prompt", "You review pull requests.", "--append-system-prompt", "Cite file paths."]);
    const system = String((await promptOnce(c)).messages[0].content);
    expect(system).toMatch(/^You review pull requests\.\n\nCite file paths\.\n\n/);
    expect(system).not.toContain("You are Atomic");
    expect(system).not.toContain("Available tools:");
    expect(system).toMatch(/Current working directory: /);
  });

  it("a flag value naming a file reads the file (relative to the working folder)", async () => {
    const { agentDir, cwd } = folders();
    await writeModelsJson(agentDir, fake.url);
    writeFileSync(join(cwd, "extra.md"), "Answer in one line.");
    const d = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--append-system-prompt", "extra.md"], env: NO_KEYS });
    clients.push(d);
    const appended = String((await promptOnce(d)).messages[0].content);
    expect(appended).toMatch(/^You are Atomic[\s\S]*Available tools:[\s\S]*\n\nAnswer in one line\.\n\n/);
  });
});

describe("--tools / --no-tools", () => {
  it("offers the model exactly the listed tools (a read-only reviewer), or none", async () => {
    const reviewer = await start(["--model", "fake-openai/fake-1", "--tools", "read,grep,find,ls"]);
    const body = await promptOnce(reviewer);
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["read", "grep", "find", "ls"]);

    const none = await start(["--model", "fake-openai/fake-1", "--no-tools"]);
    expect((await promptOnce(none)).tools ?? []).toEqual([]);

    const justBash = await start(["--model", "fake-openai/fake-1", "--no-tools", "--tools", "bash"]);
    expect((await promptOnce(justBash)).tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["bash"]);
  });

  it("an unknown tool name exits 2 listing the registered tools", async () => {
    await usageError(["--mode", "rpc", "--tools", "read,grpe"], "Unknown tool in --tools: grpe. Available: read, edit, write, grep, find, ls, bash, codemode, tool_search");
  });
});

describe("--thinking", () => {
  it("sets the startup level over a :level suffix and the setting; it is not saved", async () => {
    const c = await start(["--model", "fake-openai/fake-1:low", "--thinking", "high"], { defaultThinkingLevel: "minimal" });
    expect((await c.ok({ type: "get_state" })).thinkingLevel).toBe("high");
    const suffix = await start(["--model", "fake-openai/fake-1:low"], { defaultThinkingLevel: "minimal" });
    expect((await suffix.ok({ type: "get_state" })).thinkingLevel).toBe("low");
    await c.close();
    expect(JSON.parse(readFileSync(join(c.agentDir, "settings.json"), "utf8"))).toEqual({ defaultThinkingLevel: "minimal" });
  });

  it("an invalid level exits 2 listing the levels", async () => {
    await usageError(["--mode", "rpc", "--thinking", "extreme"], 'Invalid thinking level "extreme" for --thinking. Valid levels: off, minimal, low, medium, high, xhigh, max');
  });
});

describe("--api-key", () => {
  it("authenticates the chosen model's provider for this process only: on the wire, never stored or printed", async () => {
    const { agentDir, cwd } = folders();
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { keyless: { baseUrl: `${fake.url}/v1`, api: "openai-completions", models: [{ id: "m1" }] } } }));
    const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--model", "keyless/m1", "--api-key", "sk-cli-4242"], env: NO_KEYS });
    clients.push(c);
    const models = await c.ok({ type: "get_available_models" });
    expect(models.models.map((m: { provider: string }) => m.provider)).toContain("keyless");
    await promptOnce(c);
    expect(fake.requests.at(-1)!.headers.authorization).toBe("Bearer sk-cli-4242");
    await c.close();
    const written = readdirSync(agentDir, { recursive: true }).map((file) => String(file));
    for (const file of written) {
      const path = join(agentDir, file);
      try {
        expect(readFileSync(path, "utf8"), path).not.toContain("sk-cli-4242");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EISDIR") throw error;
      }
    }
    expect(c.stderr).not.toContain("sk-cli-4242");
    expect(JSON.stringify(c.records)).not.toContain("sk-cli-4242");
  });

  it("without a model to apply to exits 2", async () => {
    await usageError(["--mode", "rpc", "--api-key", "sk-x"], "--api-key needs a model to apply to: pass --model, --provider or --models");
  });
});

describe("--models / enabledModels and cycle_model", () => {
  it("cycles through the scope only, applying a scoped level, and reports isScoped", async () => {
    const c = await start(["--models", "fake-openai/fake-1:low, fake-anthropic/fake-1:high"]);
    expect((await c.ok({ type: "get_state" })).model).toMatchObject({ provider: "fake-openai" });
    expect((await c.ok({ type: "get_state" })).thinkingLevel).toBe("low");
    const first = await c.ok({ type: "cycle_model" });
    expect(first).toMatchObject({ model: { provider: "fake-anthropic", id: "fake-1" }, thinkingLevel: "high", isScoped: true });
    const second = await c.ok({ type: "cycle_model" });
    expect(second).toMatchObject({ model: { provider: "fake-openai" }, thinkingLevel: "low", isScoped: true });
    const logout = await c.ok({ type: "logout_provider", provider: "fake-google" });
    expect(logout.scopedModels.map((s: { model: { provider: string }; thinkingLevel: string }) => `${s.model.provider}:${s.thinkingLevel}`)).toEqual([
      "fake-openai:low",
      "fake-anthropic:high",
    ]);
  });

  it("globs in the enabledModels setting work the same; --models overrides it", async () => {
    const fromSettings = await start(["--model", "fake-google/fake-1"], { enabledModels: ["fake-*/fake-1"] });
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) seen.add((await fromSettings.ok({ type: "cycle_model" })).model.provider);
    expect([...seen].sort()).toEqual(["fake-anthropic", "fake-google", "fake-openai", "fake-responses"]);
    const overridden = await start(["--models", "fake-openai/*"], { enabledModels: ["fake-*/fake-1"] });
    expect(await overridden.ok({ type: "cycle_model" })).toBeNull();
  });

  it("skips the offline replay models unless the current model is one", async () => {
    const c = await start(["--model", "fake-openai/fake-1"]);
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) ids.add((await c.ok({ type: "cycle_model" })).model.provider);
    expect(ids.has("replay")).toBe(false);
    // Not in use, so not listed either (a client choosing "another model" never lands on it).
    expect((await c.ok({ type: "get_available_models" })).models.map((m: { provider: string }) => m.provider)).not.toContain("replay");
    const fromReplay = await start(["--provider", "replay", "--model", "demo"]);
    expect((await fromReplay.ok({ type: "get_available_models" })).models.map((m: { provider: string }) => m.provider)).toContain("replay");
    const next = await fromReplay.ok({ type: "cycle_model" });
    expect(next.isScoped).toBe(false);
    expect(next.model.provider).not.toBe("replay");
  });

  it("a --models pattern that matches no model exits 2 naming the closest", async () => {
    const { agentDir, cwd } = folders();
    await writeModelsJson(agentDir, fake.url);
    const run = await runCli(["--mode", "rpc", "--models", "fake-1,fake-opneai/fake-1"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `atomic: No model matches "fake-opneai/fake-1" in --models. Closest: fake-openai/fake-1, fake-google/fake-1. Run 'atomic --list-models' to see every model.\n`,
    );
  });
});

describe("--model and --provider mistakes", () => {
  it("a pattern that matches no model of any provider exits 2 naming the closest (no silent fallback)", async () => {
    await usageError(
      ["--mode", "rpc", "--model", "fake-2"],
      "No model matches --model \"fake-2\". Closest: fake-anthropic/fake-1, fake-openai/fake-1, fake-responses/fake-1. Run 'atomic --list-models' to see every model.",
    );
  });

  it("an unknown --provider exits 2 listing the known ones; a known one takes an unknown id with a warning", async () => {
    const { agentDir, cwd } = folders();
    await writeModelsJson(agentDir, fake.url);
    const unknown = await runCli(["--mode", "rpc", "--provider", "fake-opneai"], { agentDir, cwd, env: NO_KEYS });
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    // The built-in catalog's providers, then replay and models.json's.
    expect(unknown.stderr).toMatch(
      /^atomic: Unknown provider "fake-opneai" \(--provider\)\. Did you mean "fake-openai"\? Known providers: anthropic, openai, google, (?:[a-z-]+, )+replay, fake-anthropic, fake-openai, fake-responses, fake-google\.\n$/,
    );
    // A model family where a provider is asked for: the provider that serves it.
    const family = await runCli(["--mode", "rpc", "--provider", "claude"], { agentDir, cwd, env: NO_KEYS });
    expect(family).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown provider "claude" (--provider). Did you mean "anthropic"?') });
    const custom = await start(["--provider", "fake-openai", "--model", "fake-9"]);
    expect((await custom.ok({ type: "get_state" })).model).toMatchObject({ provider: "fake-openai", id: "fake-9" });
    expect(custom.stderr).toContain('Model "fake-9" is not in the fake-openai catalog; using it with the settings of fake-1.');
  });

  it("a saved default that no longer exists still falls back quietly", async () => {
    const c = await start([], { defaultProvider: "fake-openai", defaultModel: "gone" });
    expect((await c.ok({ type: "get_state" })).model).toMatchObject({ provider: "fake-anthropic" });
  });
});

describe("flags pi has and Atomic does not, conflicts and unknown flags", () => {
  it("a pi-only flag says so and what to do instead", async () => {
    await usageError(["--mode", "rpc", "--export", "x.jsonl"], "Option --export is pi's; Atomic does not support it: export the current session with the export_html RPC command.");
    await usageError(["--mode", "rpc", "-ne"], "Option -ne is pi's; Atomic does not support it: use --no-extensions.");
    await usageError(
      ["--mode", "rpc", "--offline"],
      "Option --offline is pi's; Atomic does not support it: Atomic makes no network calls at startup (the replay provider works with no network at all).",
    );
  });

  it("an unknown flag keeps exiting 2 with the help hint", async () => {
    await usageError(["--mode", "rpc", "--frobnicate"], "Unknown option: --frobnicate. Run 'atomic --help' for the list of options.");
  });

  it("conflicting flags exit 2 with one line naming both", async () => {
    await usageError(["--mode", "rpc", "--continue", "--session", "abc"], "Options --continue and --session cannot be used together");
    await usageError(["--mode", "rpc", "--no-session", "-c"], "Options --no-session and -c cannot be used together");
    await usageError(["--mode", "rpc", "--resume", "--no-session"], "Options --resume and --no-session cannot be used together");
  });

  it("flags of user plugins work, those an extension registers while loading too; anything else still exits 2", async () => {
    const { agentDir, cwd } = folders();
    const plugin = join(agentDir, "flag-probe.ts");
    writeFileSync(plugin, FLAG_PROBE_PLUGIN);
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ plugins: [plugin] }));
    const help = await runCli(["--help"], { agentDir, cwd });
    expect(help.stdout).toMatch(/^ {2}--house-style <name> +House style for this run\.$/m);
    const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session", "--house-style", "strict", "--plan"] });
    clients.push(c);
    expect(await c.ok({ type: "flag_probe" })).toEqual({ houseStyle: "strict", plan: true });
    const typo = await runCli(["--mode", "rpc", "--house-style", "strict", "--plna"], { agentDir, cwd });
    expect(typo).toMatchObject({ code: 2, stdout: "", stderr: "atomic: Unknown option: --plna (did you mean --plan?). Run 'atomic --help' for the list of options.\n" });
  });

  it("--help lists every plugin's new flags", async () => {
    const { agentDir, cwd } = folders();
    const run = await runCli(["--help"], { agentDir, cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  --no-themes, --theme, --use-theme, --tui-mode: pi's terminal-UI options, accepted and ignored.");
    for (const flag of [
      "--continue, -c",
      "--resume, -r",
      "--session <path|id>",
      "--thinking <level>",
      "--system-prompt <text|file>",
      "--append-system-prompt <text|file>",
      "--tools, -t <list>",
      "--no-tools",
      "--exclude-tools, -xt <list>",
      "--no-builtin-tools",
      "--session-id <id>",
      "--fork <path|id>",
      "--skill <path>",
      "--prompt-template <path>",
      "--no-context-files, -nc",
      "--api-key <key>",
      "--models <patterns>",
      "--list-models [pattern]",
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });
});

describe("--list-models", () => {
  it("prints every model with its context, reasoning and where its credential comes from, then exits", async () => {
    const { agentDir, cwd } = folders();
    await writeModelsJson(agentDir, fake.url);
    const run = await runCli(["--list-models", "fake-openai"], { agentDir, cwd, env: { ...NO_KEYS, ANTHROPIC_API_KEY: "k" } });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "provider     model   context  max-out  thinking  images  credentials",
      "fake-openai  fake-1  200K     8.2K     yes       yes     models.json",
      "",
    ]);
    const all = await runCli(["--list-models"], { agentDir, cwd, env: { ...NO_KEYS, ANTHROPIC_API_KEY: "k" } });
    expect(all.stdout).toMatch(/^anthropic +claude-sonnet-5-5 +1M +128K +yes +yes +env ANTHROPIC_API_KEY$/m);
    expect(all.stdout).toMatch(/^openai +\S+ .* none \(OPENAI_API_KEY\)$/m);
    expect(all.stdout).toMatch(/^replay +demo .* not needed$/m);
    const none = await runCli(["--list-models", "no-such-model"], { agentDir, cwd });
    expect(none).toMatchObject({
      code: 1,
      stdout: "",
      stderr:
        "atomic: No models match \"no-such-model\". No model name is close to it. Run 'atomic --list-models' to see every model, or 'atomic --list-models <search>' to search them.\n",
    });
  });
});
