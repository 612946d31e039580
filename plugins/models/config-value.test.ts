import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeConfigValue, resolveConfigValue } from "./config-value.js";

const env = { MY_KEY: "from-env", EMPTY: "" };

describe("resolveConfigValue (apiKey values)", () => {
  it("uses a literal as is", async () => {
    expect(await resolveConfigValue("sk-literal-123", { env })).toBe("sk-literal-123");
  });

  it("reads an environment variable by bare name, $NAME or ${NAME}", async () => {
    expect(await resolveConfigValue("MY_KEY", { env })).toBe("from-env");
    expect(await resolveConfigValue("$MY_KEY", { env })).toBe("from-env");
    expect(await resolveConfigValue("${MY_KEY}", { env })).toBe("from-env");
  });

  it("treats an unset bare name as a literal but an unset $NAME as missing", async () => {
    expect(await resolveConfigValue("NOT_SET_ANYWHERE", { env })).toBe("NOT_SET_ANYWHERE");
    expect(await resolveConfigValue("$NOT_SET_ANYWHERE", { env })).toBeUndefined();
    expect(await resolveConfigValue("$EMPTY", { env })).toBeUndefined();
  });

  it("runs !command through the shell and uses its trimmed output", async () => {
    expect(await resolveConfigValue("!printf '  secret-from-cmd\\n'", { env })).toBe("secret-from-cmd");
    expect(await resolveConfigValue("!echo $MY_KEY", { env })).toBe("from-env");
  });

  it("reports a failing command by what it was for, never its text or output", async () => {
    const error = await resolveConfigValue("!echo $MY_KEY; exit 3", { env, label: "apiKey of provider p" }).catch((e: Error) => e);
    expect((error as Error).message).toBe("Command for apiKey of provider p failed (exit 3)");
    expect((error as Error).message).not.toMatch(/echo|from-env|MY_KEY/);
  });

  it("kills the command and everything it started when aborted", async () => {
    const dir = await mkdtemp(join(tmpdir(), "atomic-test-"));
    try {
      const pidFile = join(dir, "pid");
      const controller = new AbortController();
      const pending = resolveConfigValue(`!sleep 30 & echo $! > ${pidFile}; wait`, { env, label: "apiKey of provider p", signal: controller.signal });
      const pid = Number(await waitForFile(pidFile));
      expect(isAlive(pid)).toBe(true);
      controller.abort();
      await expect(pending).rejects.toThrow("Command for apiKey of provider p aborted");
      await waitUntil(() => !isAlive(pid));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("times out a command that never ends", async () => {
    const { runSecretCommand } = await import("./secret-command.js");
    await expect(runSecretCommand("sleep 30", { env, label: "x", timeoutMs: 50 })).rejects.toThrow("Command for x timed out after 0.05 s");
  });

  it("keeps header-like literals literal when bare names are not env names", async () => {
    expect(await resolveConfigValue("MY_KEY", { env, bareNameIsEnv: false })).toBe("MY_KEY");
    expect(await resolveConfigValue("$MY_KEY", { env, bareNameIsEnv: false })).toBe("from-env");
  });

  it("describes values without running commands", () => {
    expect(describeConfigValue("!false", { env })).toEqual({ kind: "command", resolvable: true });
    expect(describeConfigValue("MY_KEY", { env })).toEqual({ kind: "env", envName: "MY_KEY", resolvable: true });
    expect(describeConfigValue("${NOPE}", { env })).toEqual({ kind: "env", envName: "NOPE", resolvable: false });
    expect(describeConfigValue("abc", { env })).toEqual({ kind: "literal", resolvable: true });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `test` (a process exit is asynchronous); fails the test after ~5 s. */
async function waitUntil(test: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(test()).toBe(true);
}

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const text = await readFile(path, "utf8").catch(() => "");
    if (text.endsWith("\n")) return text.trim();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path} was not written`);
}
