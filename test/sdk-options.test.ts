/**
 * `createAgent`'s options are checked before anything boots (an unknown key is named with the
 * one meant, a value of the wrong type with what the option takes), and the messages about them
 * name the options as the SDK takes them, not the CLI's flags. Offline: the replay provider.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AgentCommandError, AgentRunError, createAgent, type Agent, type CreateAgentOptions } from "../sdk/index.js";
import type { Logger } from "../kernel/index.js";
import { tempDir } from "./helpers/temp.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.dispose()));
});

/** createAgent in a fresh folder without keys or settings files; `warnings` collects what it logs. */
async function make(options: Record<string, unknown>, warnings: string[] = []): Promise<Agent> {
  const dir = tempDir("atomic-sdk-options-");
  const log: Logger = { info() {}, warn: (text) => void warnings.push(text), error: (text) => void warnings.push(text) };
  const given = { cwd: dir, agentDir: dir, session: false, settingsFiles: false, env: { ...process.env, ...NO_KEYS }, log, ...options };
  const agent = await createAgent(given as CreateAgentOptions);
  agents.push(agent);
  return agent;
}

const OPTION_LIST = "cwd, agentDir, provider, model, session, settings, plugins, extensions, settingsFiles, env, log, flags";

describe("createAgent options", () => {
  it("an unknown key is refused with the option meant, not ignored until 'No model selected'", async () => {
    await expect(make({ provider: "replay", modle: "demo" })).rejects.toThrow(`Unknown createAgent option "modle". Did you mean "model"? The options are: ${OPTION_LIST}.`);
    await expect(make({ verbose: true })).rejects.toThrow(`Unknown createAgent option "verbose". The options are: ${OPTION_LIST}.`);
  });

  it("a settings key nothing reads is warned about as in a settings file, with the key meant", async () => {
    const warnings: string[] = [];
    await make({ provider: "replay", model: "demo", settings: { defaultModle: "x", retry: { maxRetry: 2 } } }, warnings);
    expect(warnings).toContain(`Unknown setting "defaultModle" in createAgent's settings (did you mean "defaultModel"?): no plugin reads it, ignored`);
    expect(warnings).toContain(`Unknown setting "retry.maxRetry" in createAgent's settings (did you mean "retry.maxRetries"?): no plugin reads it, ignored`);
  });

  it("a flags key no flag has is warned about with the flag meant, as a settings key is", async () => {
    const warnings: string[] = [];
    await make({ provider: "replay", model: "demo", flags: { recrod: "demo-run", noContextFiles: true } }, warnings);
    expect(warnings).toContain(`Unknown flag "recrod" in createAgent's flags (did you mean "record"?): no plugin reads it, ignored`);
    // A key a flag has (a built-in one here) is no mistake.
    expect(warnings.filter((line) => line.includes("noContextFiles"))).toEqual([]);
  });

  it("a value of the wrong type names the option and what it takes; a model object is told the string that names it", async () => {
    await expect(make({ model: { provider: "replay", id: "demo" } })).rejects.toThrow(
      'Invalid createAgent option model: expected a string: "provider/id", an id or a pattern, with an optional ":<thinking>" (e.g. "anthropic/claude-sonnet-4-6:high"); got an object (for this model, pass model: "replay/demo")',
    );
    await expect(make({ model: 42 })).rejects.toThrow("Invalid createAgent option model: expected a string: ");
    await expect(make({ session: true })).rejects.toThrow("Invalid createAgent option session: expected false (in memory only) or { dir?: string }; got boolean true");
    await expect(make({ extensions: "ext.ts" })).rejects.toThrow('Invalid createAgent option extensions: expected array; got string "ext.ts"');
    await expect(make({ env: { HOME: 1 } })).rejects.toThrow("Invalid createAgent option env.HOME: expected string; got number 1");
    // The accepted forms still work.
    expect((await make({ provider: "replay", model: "demo", session: { dir: tempDir("atomic-sessions-") } })).cwd).toEqual(expect.any(String));
  });

  it("messages about the options name them as createAgent takes them, not as flags", async () => {
    await expect(make({ provider: "replya", model: "demo" })).rejects.toThrow('Unknown provider "replya" (the provider option). Did you mean "replay"?');
    await expect(make({ model: "zzzz-no-such" })).rejects.toThrow('No model matches the model option "zzzz-no-such".');

    const bare = await make({});
    const refused = await bare.prompt("hi").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AgentCommandError);
    expect((refused as Error).message).toMatch(
      /^No model selected\. Use set_model, or pass model \(and provider\) to createAgent\. No provider has an API key: .*`\{ provider: "replay", model: "demo" \}` runs the offline demo\.$/,
    );

    const warnings: string[] = [];
    const recording = await make({ provider: "replay", model: "nope", flags: { record: "no pe!" } }, warnings);
    expect(warnings).toContain('Ignoring flags.record "no pe!": a cassette name may use letters, digits, ".", "-" and "_" only.');
    const failed = await recording.prompt("hi").catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AgentRunError);
    expect((failed as Error).message).toContain('Record one with a real provider and flags: { record: "nope" } (written to');
  });
});
