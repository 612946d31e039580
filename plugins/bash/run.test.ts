import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isProcessAlive, waitUntil } from "./process-probe.js";
import { runShellCommand, type OutputChannel } from "./run.js";

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), "atomic-run-"))));
afterEach(() => rm(dir, { recursive: true, force: true }));

const run = (command: string, extra: Partial<Parameters<typeof runShellCommand>[0]> = {}) => runShellCommand({ command, cwd: dir, shell: "/bin/bash", tempDir: dir, ...extra });

describe("runShellCommand", () => {
  it("reports clean text per channel, which concatenates to the merged output", async () => {
    const chunks: [OutputChannel, string][] = [];
    const result = await run("printf '\\033[32mout\\033[0m\\n'; sleep 0.05; echo err >&2; pwd", {
      onOutput: (channel, text) => chunks.push([channel, text]),
    });
    expect(result.output).toBe(`out\nerr\n${dir}\n`);
    expect(result).toMatchObject({ exitCode: 0, cancelled: false, timedOut: false, truncated: false, fullOutputPath: null, totalLines: 3 });
    const byChannel = (channel: OutputChannel) =>
      chunks
        .filter(([c]) => c === channel)
        .map(([, text]) => text)
        .join("");
    expect(byChannel("stdout")).toBe(`out\n${dir}\n`);
    expect(byChannel("stderr")).toBe("err\n");
    expect(chunks.map(([, text]) => text).join("")).toBe(result.output);
  });

  it("sanitises NUL bytes (saying how many), invalid UTF-8 and carriage returns", async () => {
    const deltas: string[] = [];
    const result = await run("printf 'a\\000b\\377c\\r\\nd\\t\\xc3\\xa9\\n'", { onOutput: (_channel, text) => deltas.push(text) });
    expect(deltas.join("")).toBe("ab\ufffdc\nd\t\u00e9\n");
    expect(result.output).toBe("ab\ufffdc\nd\t\u00e9\n\n[1 NUL byte was removed from the output: it looks like binary data. Redirect it to a file to keep it.]");
  });

  it("pauses reading while the consumer is congested, and loses nothing", async () => {
    let release!: () => void;
    const congested = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const delivered: string[] = [];
    const promise = run("seq 1 200000; echo done", {
      onOutput: (_channel, text) => delivered.push(text),
      backpressure: () => (++asked === 1 ? congested : undefined),
    });
    await waitUntil(() => delivered.length > 0, 5000);
    // Without the pause, the rest would arrive within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whilePaused = delivered.join("").length;
    release();
    const result = await promise;
    const expected = Array.from({ length: 200000 }, (_, i) => String(i + 1)).join("\n") + "\ndone\n";
    // At most what the pipe and one read hold, far from the 1.3 MB the command prints.
    expect(whilePaused).toBeLessThan(256 * 1024);
    expect(delivered.join("")).toBe(expected);
    expect(result).toMatchObject({ exitCode: 0, truncated: true, totalLines: 200001 });
  });

  it("strips an escape sequence split across chunks", async () => {
    const result = await run("printf '\\033[3'; sleep 0.1; printf '1mred\\033[0m\\n'");
    expect(result.output).toBe("red\n");
  });

  it("maps death by signal to 128+N", async () => {
    expect((await run("kill -9 $$")).exitCode).toBe(137);
  });

  it("uses the given shell", async () => {
    expect((await run("echo $0", { shell: "/bin/sh" })).output).toBe("/bin/sh\n");
    await expect(run("true", { shell: join(dir, "no-such-shell") })).rejects.toThrow("Failed to run shell");
  });

  it("does not start when already aborted, and rejects a missing cwd", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run("echo never", { signal: controller.signal })).toMatchObject({ cancelled: true, exitCode: undefined, output: "" });
    await expect(run("true", { cwd: join(dir, "missing") })).rejects.toThrow("Working directory does not exist");
  });

  it("does not wait for background jobs that keep the pipes open", async () => {
    // The job outlives the test's timeout: the result arriving while it runs is the check.
    const result = await run("sleep 600 & echo $!");
    const pid = Number(result.output.trim());
    try {
      expect(result.exitCode).toBe(0);
      expect(isProcessAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("escalates to SIGKILL when the tree ignores SIGTERM", async () => {
    const controller = new AbortController();
    let pid = 0;
    // The tree ignores SIGTERM and would outlive the test: only the SIGKILL ends it.
    const promise = run("trap '' TERM; sleep 600 & echo $!; wait", {
      signal: controller.signal,
      killGraceMs: 200,
      onOutput: (_channel, text) => {
        pid = Number(text.trim());
        controller.abort();
      },
    });
    const result = await promise;
    expect(result).toMatchObject({ cancelled: true, exitCode: undefined });
    expect(await waitUntil(() => !isProcessAlive(pid), 20_000)).toBe(true);
  });

  it("keeps memory bounded for huge output and still writes all of it to the file", async () => {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let calls = 0;
    const result = await run("yes | head -c 200000000", {
      onProgress: () => {
        if (++calls % 200 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    expect(result).toMatchObject({ exitCode: 0, truncated: true, totalBytes: 200_000_000, totalLines: 100_000_000 });
    expect(result.output).toBe(Array(2000).fill("y").join("\n"));
    expect((await stat(result.fullOutputPath!)).size).toBe(200_000_000);
  }, 60_000);
});
