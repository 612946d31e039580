import { mkdtemp, readFile, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { tmpdir } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parametersJsonSchema, type ToolResult } from "../../kernel/index.js";
import { createToolRunner, textOf } from "../tools/test-harness.js";
import { isProcessAlive, waitUntil } from "./process-probe.js";
import { createBashTool, type BashToolOptions } from "./tool.js";

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), "atomic-bash-test-"))));
afterEach(() => rm(dir, { recursive: true, force: true }));

function bash(args: Record<string, unknown>, options: { signal?: AbortSignal; onUpdate?: (partial: ToolResult) => void } = {}, tool: Partial<BashToolOptions> = {}) {
  const runner = createToolRunner([createBashTool({ shell: async () => "/bin/bash", tempDir: dir, ...tool })]);
  return runner.run("bash", args, { cwd: dir, ...options });
}

describe("bash tool: results", () => {
  it("returns output with details, runs in cwd", async () => {
    const result = await bash({ command: "echo hello; pwd" });
    expect(textOf(result)).toBe(`hello\n${dir}\n`);
    expect(result.details).toEqual({ truncation: null, fullOutputPath: null, exitCode: 0 });
  });

  it("says (no output) when there is none", async () => {
    expect(textOf(await bash({ command: "true" }))).toBe("(no output)");
  });

  it("merges stderr in arrival order and strips ANSI codes", async () => {
    const text = textOf(await bash({ command: "echo one; sleep 0.05; echo two >&2; sleep 0.05; printf '\\033[1;31mthree\\033[0m\\n'" }));
    expect(text).toBe("one\ntwo\nthree\n");
  });

  it("a non-zero exit is an error result with the output and the code, and its structured result for callers", async () => {
    const failed = await bash({ command: "echo failing; exit 3" });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("failing\n\n\nCommand exited with code 3");
    expect(failed.structuredContent).toMatchObject({ output: "failing\n", truncated: false, exit_code: 3 });
    expect(textOf(await bash({ command: "exit 2" }))).toBe("Command exited with code 2");
  });

  it("hands callers up to 1 MiB of output (the model sees the tail), and its first and last 512 KiB past that", async () => {
    const whole = await bash({ command: "seq 1 5000" });
    expect((whole.structuredContent as { output: string }).output).toBe(`${Array.from({ length: 5000 }, (_, i) => i + 1).join("\n")}\n`);
    const huge = (await bash({ command: "head -c 1200000 /dev/zero | tr '\\0' x" })).structuredContent as { output: string; truncated: boolean; full_output_path?: string };
    expect(huge.truncated).toBe(true);
    expect(huge.output).toMatch(/^x{524288}\n\[\.\.\. 151424 bytes omitted \.\.\.\]\nx{524288}$/);
    expect(huge.full_output_path).toBe((await readFile(huge.full_output_path!, "utf8")).length === 1200000 ? huge.full_output_path : "");
  });

  it("keeps the tail and saves the complete output to a file", async () => {
    const result = await bash({ command: "seq 1 5000" });
    const { fullOutputPath, truncation } = result.details as { fullOutputPath: string; truncation: { truncatedBy: string } };
    const tail = Array.from({ length: 2000 }, (_, i) => String(3001 + i)).join("\n");
    expect(textOf(result)).toBe(`${tail}\n\n[Showing lines 3001-5000 of 5000. Full output: ${fullOutputPath}]`);
    expect(truncation.truncatedBy).toBe("lines");
    expect(basename(fullOutputPath)).toMatch(/^atomic-bash-[0-9a-f]{16}\.log$/);
    const expected = Array.from({ length: 5000 }, (_, i) => String(i + 1)).join("\n") + "\n";
    expect(await readFile(fullOutputPath, "utf8")).toBe(expected);
  });

  it("truncates by bytes, returning the end of a single oversize line", async () => {
    const result = await bash({ command: "head -c 100000 /dev/zero | tr '\\0' a; echo; printf b" });
    const text = textOf(result);
    const { fullOutputPath } = result.details as { fullOutputPath: string };
    expect(text).toBe(`b\n\n[Showing lines 2-2 of 2. Full output: ${fullOutputPath}]`);
    expect(await readFile(fullOutputPath, "utf8")).toBe("a".repeat(100_000) + "\nb");
    const single = await bash({ command: "head -c 100000 /dev/zero | tr '\\0' a" });
    expect(textOf(single).startsWith("a".repeat(51_200) + "\n\n[Showing the last 50.0KB of line 1 (1 lines total).")).toBe(true);
  });
});

describe("bash tool: stopping", () => {
  it("times out, killing the command, with the output so far", async () => {
    // The command would outlive the test's timeout: only the kill ends it.
    await expect(bash({ command: "echo started; sleep 600", timeout: 0.5 })).rejects.toThrow(/^started\n\n\nCommand timed out after 0.5 seconds$/);
  });

  it("treats a timeout beyond the timer range as a long timeout, not an instant kill", async () => {
    // 3e9 ms does not fit a 32-bit timer: unclamped, Node fires it after 1 ms.
    expect(textOf(await bash({ command: "sleep 0.2; echo finished", timeout: 3_000_000 }))).toBe("finished\n");
  });

  it("aborts mid-command and kills the whole process tree", async () => {
    const controller = new AbortController();
    let backgroundPid = 0;
    // Both sleeps outlive the test's timeout: only killing the tree ends them.
    const promise = bash(
      { command: "sleep 600 & echo $!; sleep 600" },
      {
        signal: controller.signal,
        onUpdate: (partial) => {
          backgroundPid = Number(textOf(partial).trim());
          controller.abort();
        },
      },
    );
    await expect(promise).rejects.toThrow(/\n\nCommand aborted$/);
    expect(backgroundPid).toBeGreaterThan(0);
    expect(await waitUntil(() => !isProcessAlive(backgroundPid), 20_000)).toBe(true);
  });
});

describe("bash tool: partial updates", () => {
  it("streams the accumulated output, each update extending the previous one", async () => {
    const updates: ToolResult[] = [];
    await bash({ command: "for i in 1 2 3 4 5; do echo $i; sleep 0.1; done" }, { onUpdate: (partial) => updates.push(partial) });
    const texts = updates.map(textOf);
    // A busy machine may deliver two lines in one chunk: more than one update is the behaviour.
    expect(texts.length).toBeGreaterThan(1);
    for (let i = 1; i < texts.length; i++) expect(texts[i]!.startsWith(texts[i - 1]!)).toBe(true);
    expect(texts.at(-1)).toBe("1\n2\n3\n4\n5\n");
    expect(updates[0]!.details).toEqual({ truncation: null, fullOutputPath: null });
  });

  it("throttles updates to about one per 50 ms", async () => {
    let count = 0;
    const started = Date.now();
    await bash({ command: "for i in $(seq 1 100); do echo $i; sleep 0.005; done" }, { onUpdate: () => count++ });
    const elapsed = Date.now() - started;
    expect(count).toBeGreaterThan(1);
    // A slower machine only loosens this bound (it counts updates per elapsed time).
    expect(count).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 2);
  });
});

describe("bash tool: settings", () => {
  it("uses the shared shell and the command prefix", async () => {
    const result = await bash({ command: "echo $0; echo $PREFIXED" }, {}, { shell: async () => "/bin/sh", commandPrefix: "PREFIXED=yes" });
    expect(textOf(result)).toBe("/bin/sh\nyes\n");
  });

  it("applies the default timeout when the model gives none, and names it", async () => {
    await expect(bash({ command: "echo started; sleep 30" }, {}, { defaultTimeoutSeconds: 0.3 })).rejects.toThrow(/Command timed out after 0.3 seconds$/);
  });

  it("reports each full-output file it writes", async () => {
    const files: string[] = [];
    const result = await bash({ command: "seq 1 3000" }, {}, { onFullOutput: (path) => files.push(path) });
    expect(files).toEqual([(result.details as { fullOutputPath: string }).fullOutputPath]);
  });
});

describe("bash tool: the JSON Schema the model is shown", () => {
  it("with the default timeout, the generated one equals the zod schema converted (else run `npm run tool-schemas`)", () => {
    const tool = createBashTool({ shell: async () => "/bin/sh" });
    expect(tool.precomputedJsonSchema, "json-schema.generated.ts is stale; run npm run tool-schemas").toEqual(parametersJsonSchema(tool.parameters));
  });

  it("with another default timeout, none is precomputed: the converted schema names that timeout", () => {
    const tool = createBashTool({ shell: async () => "/bin/sh", defaultTimeoutSeconds: 42 });
    expect(tool.precomputedJsonSchema).toBeUndefined();
    expect(JSON.stringify(parametersJsonSchema(tool.parameters))).toContain("default 42");
  });
});
