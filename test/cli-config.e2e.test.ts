/**
 * Diagnostics over the built CLI: `atomic config` (where each setting comes from, models.json,
 * auth.json, credentials, every problem), and a models.json that fails validation reported where
 * the user looks: the prompt error after `No model selected.`, and the --model error.
 */
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
const dirs: string[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const BAD_MODELS = { providers: { bad: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: 7 }] } } };

afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folders(files: { settings?: unknown; project?: unknown; models?: unknown; auth?: unknown } = {}): { agentDir: string; cwd: string } {
  const agentDir = tempDir("atomic-agent-");
  const cwd = realpathSync(tempDir("atomic-cwd-"));
  dirs.push(agentDir, cwd);
  const write = (path: string, value: unknown) => writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  if (files.settings !== undefined) write(join(agentDir, "settings.json"), files.settings);
  if (files.models !== undefined) write(join(agentDir, "models.json"), files.models);
  // As Atomic and pi write it: only its owner may read it.
  if (files.auth !== undefined) writeFileSync(join(agentDir, "auth.json"), JSON.stringify(files.auth), { mode: 0o600 });
  if (files.project !== undefined) {
    mkdirSync(join(cwd, ".atomic"));
    write(join(cwd, ".atomic", "settings.json"), files.project);
  }
  return { agentDir, cwd };
}

describe("atomic config", () => {
  it("shows the sandbox in force; a project's attempt to loosen it is a note, a sandbox that cannot start a problem", async () => {
    const { agentDir, cwd } = folders({ settings: { sandbox: { mode: "read-only" } }, project: { sandbox: { mode: "off", network: true } } });
    const run = await runCli(["config", "--sandbox", "workspace-write"], { agentDir, cwd, env: { ...NO_KEYS, PATH: join(cwd, "no-bin") } });
    expect(run.stdout).toContain("  workspace-write (writable: workspace, private /tmp; network off; escalation never), enforced by bubblewrap\n");
    expect(run.stdout).toMatch(/^  sandbox +project +sandbox$/m);
    expect(run.stdout).toContain('Ignored sandbox.mode "off" (the user\'s is "read-only") in the project\'s settings: an untrusted project may tighten the sandbox, not loosen it');
    expect(run.stdout).toContain("Sandbox workspace-write: the sandbox cannot start: bubblewrap (bwrap) is not installed;");
    expect(run.code).toBe(1);
  });

  it('a sandbox setting written as the flag\'s mode ("sandbox": "readonly") is a problem that shows the object to write', async () => {
    const { agentDir, cwd } = folders({ settings: { sandbox: "readonly" } });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.stdout).toContain(`Invalid settings file ${join(agentDir, "settings.json")}: Invalid sandbox: expected an object, such as {"mode": "read-only"}`);
    expect(run.code).toBe(1);
  });

  it("shows where each setting comes from, the files read, credential sources and the startup model", async () => {
    const { agentDir, cwd } = folders({
      settings: { defaultThinkingLevel: "high", theme: "dark", defaultProvider: "anthropic", defaultModel: "claude-haiku-4-5" },
      project: { steeringMode: "all", shellPath: "./evil.sh" },
      auth: { anthropic: { type: "api_key", key: "sk-stored-777" } },
    });
    const run = await runCli(["config"], { agentDir, cwd, env: { ...NO_KEYS, OPENAI_API_KEY: "sk-env-888" } });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain(`Agent dir:      ${agentDir}\nWorking folder: ${cwd} (project not trusted)\n`);
    expect(out).toContain(`  user     ${join(agentDir, "settings.json")} (read)\n  project  ${join(cwd, ".atomic", "settings.json")} (read)\n`);
    expect(out).toMatch(/^  defaultThinkingLevel +user +agent$/m);
    expect(out).toMatch(/^  steeringMode +project +agent$/m);
    expect(out).toMatch(/^  shellPath +default +bash$/m);
    expect(out).toMatch(/^  compaction +default +compaction$/m);
    expect(out).toContain("  Read by pi, not by Atomic (kept, ignored): theme\n");
    expect(out).toContain(`  models.json  ${join(agentDir, "models.json")} (not found)\n`);
    expect(out).toContain(`  auth.json    ${join(agentDir, "auth.json")} (entries: anthropic)\n`);
    expect(out).toContain("  startup model  anthropic/claude-haiku-4-5 (thinking high)\n");
    expect(out).toMatch(/^  anthropic +auth\.json +\d+ models$/m);
    expect(out).toMatch(/^  openai +env OPENAI_API_KEY +\d+ models$/m);
    expect(out).toMatch(/^  google +none \(GEMINI_API_KEY\) +\d+ models$/m);
    expect(out).toContain(
      "Sandbox (the model's commands and file tools)\n  off (commands and file tools run with your rights, as in pi); the default: --sandbox workspace-write or the sandbox setting turns it on (docs/sandbox.md)\n",
    );
    expect(out).toMatch(/^  replay +not needed +1 model$/m);
    expect(out).toContain(`Notes\n  - Ignored "shellPath" in ${join(cwd, ".atomic", "settings.json")}: an untrusted project may not set it`);
    expect(out.endsWith("\nProblems: none\n")).toBe(true);
    expect(out).not.toMatch(/sk-stored-777|sk-env-888/);
  });

  it("lists every problem and exits 1: a models.json that fails validation, a keyless custom provider", async () => {
    const models = { providers: { ...BAD_MODELS.providers } };
    const { agentDir, cwd } = folders({ models });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    const path = join(agentDir, "models.json");
    expect(run.stdout).toContain(`  models.json  ${path} (read; providers: bad; 1 entry skipped (see Problems))\n`);
    expect(run.stdout).toContain(`Problems (1)\n  - Invalid models file ${path}: Invalid providers.bad.models.0.id: expected string (entry skipped)\n`);

    const keyless = folders({ models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "m" }] } } } });
    const second = await runCli(["config"], { ...keyless, env: NO_KEYS });
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`(read; providers: local)`);
    expect(second.stdout).toMatch(/^  local +none +1 model$/m);
    expect(second.stdout).toContain(`  - Custom provider "local" in ${join(keyless.agentDir, "models.json")} has no API key: add providers.local.apiKey`);
  });

  it("a settings file that stops startup is a problem, and everything else is still checked", async () => {
    const { agentDir, cwd } = folders({ settings: '{"retry": {"maxRetries": "three"}}', models: BAD_MODELS });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Checked without the settings files and user plugins: they stop startup (see Problems).\n");
    expect(run.stdout).toContain("Settings files (not read: see Problems)\n");
    expect(run.stdout).toContain(`Problems (2)\n  - Invalid settings file ${join(agentDir, "settings.json")}: Invalid retry.maxRetries: expected number`);
    expect(run.stdout).toContain(`  - Invalid models file ${join(agentDir, "models.json")}: Invalid providers.bad.models.0.id`);
  });

  it("every invalid setting of both files, and every key nothing reads (with the nearest known key), is a problem", async () => {
    const { agentDir, cwd } = folders({
      settings: { retry: { maxRetries: "three" }, defaultThinkingLevel: "hgih", retyr: {} },
      project: { compaction: { enabled: "yes" }, defualtModel: "x" },
    });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    const user = join(agentDir, "settings.json");
    const project = join(cwd, ".atomic", "settings.json");
    expect(run.stdout).toContain(
      [
        "Problems (5)",
        `  - Unknown setting "retyr" in ${user} (did you mean "retry"?): no plugin reads it, ignored`,
        `  - Unknown setting "defualtModel" in ${project} (did you mean "defaultModel"?): no plugin reads it, ignored`,
        `  - Invalid settings file ${user}: Invalid retry.maxRetries: expected number`,
        `  - Invalid settings file ${user}: Invalid defaultThinkingLevel: expected one of "off", "minimal", "low", "medium", "high", "xhigh", "max"`,
        `  - Invalid settings file ${project}: Invalid compaction.enabled: expected boolean`,
        "",
      ].join("\n"),
    );
    // Starting for real says the same on stderr, then stops.
    const start = await runCli(["--mode", "rpc"], { agentDir, cwd, env: NO_KEYS });
    expect(start.code).toBe(1);
    expect(start.stderr.split("\n").filter((line) => line.startsWith("atomic: Invalid settings file"))).toHaveLength(3);
    expect(start.stderr).toContain(`[atomic] warning: Unknown setting "retyr" in ${user} (did you mean "retry"?)`);
  });

  it("a saved default model without a key says so, instead of silently using another", async () => {
    const { agentDir, cwd } = folders({ settings: { defaultProvider: "anthropic", defaultModel: "claude-haiku-4-5" } });
    const run = await runCli(["config"], { agentDir, cwd, env: { ...NO_KEYS, OPENAI_API_KEY: "sk-env" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/startup model {2}openai\//);
    expect(run.stdout).toContain(
      "  - The default model anthropic/claude-haiku-4-5 (settings defaultProvider/defaultModel) has no API key. Set ANTHROPIC_API_KEY, add the key to models.json, run `atomic auth set anthropic`, or log in with `atomic login anthropic`. Using openai/",
    );
    // With no other model, it stays the model, and a prompt names the missing key.
    const print = await runCli(["-p", "hi"], { agentDir, cwd, env: NO_KEYS });
    expect(print.code).toBe(1);
    expect(print.stderr).toContain("atomic: No API key found for anthropic. Set ANTHROPIC_API_KEY");
  });

  it("a saved default naming no provider, or no model of its provider, is a problem and a startup warning", async () => {
    const unknown = folders({ settings: { defaultProvider: "nosuch" } });
    const config = await runCli(["config"], { ...unknown, env: NO_KEYS });
    expect(config.code).toBe(1);
    expect(config.stdout).toContain('  - Unknown provider "nosuch" in settings defaultProvider (ignored). Known providers: anthropic, ');
    const print = await runCli(["-p", "hi"], { ...unknown, env: NO_KEYS });
    expect(print.code).toBe(1);
    expect(print.stderr).toContain('Unknown provider "nosuch" in settings defaultProvider');

    const typo = folders({ settings: { defaultProvider: "antropic" } });
    expect((await runCli(["config"], { ...typo, env: NO_KEYS })).stdout).toContain('(ignored). Did you mean "anthropic"?');

    const model = folders({ settings: { defaultProvider: "anthropic", defaultModel: "claude-sonet-5" } });
    const withKey = await runCli(["config"], { ...model, env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-env" } });
    expect(withKey.code).toBe(1);
    expect(withKey.stdout).toContain('  - No model "claude-sonet-5" of provider "anthropic" (settings defaultModel; ignored). Closest: anthropic/claude-sonnet-5');
    // Named on the command line, the saved defaults are not used: nothing to report.
    const overridden = await runCli(["config", "--provider", "replay", "--model", "demo"], { ...model, env: NO_KEYS });
    expect(overridden.stdout).not.toContain("claude-sonet-5");
  });

  it("a saved defaultModel without defaultProvider is a problem saying how to write it (pi reads it only with the provider)", async () => {
    const slashed = folders({ settings: { defaultModel: "anthropic/claude-sonnet-5" } });
    const config = await runCli(["config"], { ...slashed, env: NO_KEYS });
    expect(config.code).toBe(1);
    expect(config.stdout).toContain(
      '  - Settings defaultModel "anthropic/claude-sonnet-5" is ignored: it is read only with defaultProvider. Write it as "defaultProvider": "anthropic", "defaultModel": "claude-sonnet-5".',
    );
    const print = await runCli(["-p", "hi"], { ...slashed, env: NO_KEYS });
    expect(print.stderr).toContain('Settings defaultModel "anthropic/claude-sonnet-5" is ignored');

    const bare = folders({ settings: { defaultModel: "claude-sonnet-5" } });
    expect((await runCli(["config"], { ...bare, env: NO_KEYS })).stdout).toMatch(
      /Settings defaultModel "claude-sonnet-5" is ignored: it is read only with defaultProvider\. Set defaultProvider to the provider that serves it \("anthropic"/,
    );
    const unknown = folders({ settings: { defaultModel: "nosuch/model" } });
    expect((await runCli(["config"], { ...unknown, env: NO_KEYS })).stdout).toContain(
      'Settings defaultModel "nosuch/model" is ignored: it is read only with defaultProvider. Set defaultProvider too (atomic --list-models shows provider and model ids).',
    );
  });

  it("a shellPath that cannot be executed is a problem and a startup warning, not a surprise at the first command", async () => {
    const missing = folders({ settings: { shellPath: "/no/such/shell" } });
    const config = await runCli(["config"], { ...missing, env: NO_KEYS });
    expect(config.code).toBe(1);
    expect(config.stdout).toContain('  - Settings shellPath "/no/such/shell" is not an executable file: the bash tool and the bash command fail until it names one');
    const print = await runCli(["-p", "--provider", "replay", "--model", "demo", "hi"], { ...missing, env: NO_KEYS });
    expect(print.stderr).toContain('Settings shellPath "/no/such/shell" is not an executable file');
    const found = folders({ settings: { shellPath: "/bin/sh" } });
    expect((await runCli(["config"], { ...found, env: NO_KEYS })).stdout).not.toContain('shellPath "/bin/sh"');
  });

  it("a flag that stops startup is a problem; the rest is checked without the flags", async () => {
    const { agentDir, cwd } = folders({ settings: { defaultThinkingLevel: "low" } });
    const run = await runCli(["config", "--model", "no-such-model-anywhere", "--tools", "read"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Checked without the command-line options: they stop startup (see Problems).\n");
    expect(run.stdout).toMatch(/^  defaultThinkingLevel +user +agent$/m);
    expect(run.stdout).toMatch(/Problems \(1\)\n  - No model matches --model "no-such-model-anywhere"\. No model name is close to it\. Run 'atomic --list-models'/);
  });

  it("takes the run's flags: --approve trusts the project", async () => {
    const { agentDir, cwd } = folders({ project: { shellPath: "/bin/sh" } });
    const run = await runCli(["config", "--approve"], { agentDir, cwd, env: NO_KEYS });
    expect(run.stdout).toContain("(project trusted)");
    expect(run.stdout).toMatch(/^  shellPath +project +bash$/m);
    expect(run.code).toBe(0);
  });
});

describe("a models.json that fails validation, where the user looks", () => {
  it("prompt: `No model selected.` is followed by the validation error (file and key)", async () => {
    const { agentDir, cwd } = folders({ models: BAD_MODELS });
    const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session"], env: NO_KEYS });
    clients.push(c);
    const rejected = await c.request({ type: "prompt", message: "hi" });
    expect(rejected).toMatchObject({
      success: false,
      error: `No model selected. Use set_model, or start with --provider/--model. Invalid models file ${join(agentDir, "models.json")}: Invalid providers.bad.models.0.id: expected string (entry skipped)`,
    });
    expect(await c.request({ type: "set_model", provider: "bad", modelId: "7" })).toMatchObject({ success: false, error: "Model not found: bad/7" });
    await c.request({ type: "prompt", message: "again" });
    // On stderr once at startup, however often a client asks.
    expect(c.stderr.match(/Invalid models file/g)).toHaveLength(1);
  });

  it("--model naming the model of a skipped entry: the entry's error, once, then exit 2", async () => {
    const { agentDir, cwd } = folders({ models: BAD_MODELS });
    const run = await runCli(["--mode", "rpc", "--model", "bad/seven"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`[atomic] warning: Invalid models file ${join(agentDir, "models.json")}: Invalid providers.bad.models.0.id: expected string (entry skipped)`);
    expect(lines[1]).toMatch(
      /^atomic: No model matches --model "bad\/seven"\. (Closest: .+\. Run 'atomic --list-models' to see every model\.|No model name is close to it\. Run 'atomic --list-models' .+)$/,
    );
  });
});

describe("atomic auth", () => {
  it("set <unknown provider> names the known ones and exits 2 unless --force; list never prints a key; clear removes it", async () => {
    const { agentDir, cwd } = folders({
      models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "!pass show local", models: [{ id: "m" }] } } },
    });
    const typo = await runCli(["auth", "set", "opnai"], { agentDir, cwd, stdin: "sk-typo\n" });
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    // The built-in catalog's providers first, then models.json's.
    expect(typo.stderr).toMatch(
      /^Unknown provider "opnai"\. Did you mean "openai"\? Known providers: anthropic, openai, google, (?:[a-z-]+, )+local\. For a provider a plugin of yours registers, pass --force\.\n$/,
    );
    expect(typo.stderr).toContain(", openrouter, groq, ");
    expect(await runCli(["auth", "set", "opnai", "--force"], { agentDir, cwd, stdin: "sk-forced-555\n" })).toMatchObject({ code: 0 });
    const list = await runCli(["auth", "list"], { agentDir, cwd, env: { ...NO_KEYS, GEMINI_API_KEY: "g-999" } });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("google: environment (GEMINI_API_KEY)\n");
    expect(list.stdout).toContain("opnai: auth.json\n");
    expect(list.stdout).toContain("local: models.json (a command)\n");
    expect(list.stdout).not.toMatch(/sk-forced-555|g-999|pass show/);
    expect(await runCli(["auth", "clear", "opnai"], { agentDir, cwd })).toMatchObject({ code: 0, stdout: "Removed the stored key for opnai.\n" });
    // Clearing twice is fine; a name that is no provider then gets the one it was meant to be.
    expect(await runCli(["auth", "clear", "opnai"], { agentDir, cwd })).toMatchObject({ code: 0, stdout: 'No stored key for opnai. Did you mean "openai"?\n' });
    expect(await runCli(["auth", "clear", "openai"], { agentDir, cwd })).toMatchObject({ code: 0, stdout: "No stored key for openai.\n" });
    expect((await runCli(["auth", "list"], { agentDir, cwd })).stdout).not.toContain("opnai");
  });
});
