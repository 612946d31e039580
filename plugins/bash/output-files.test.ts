import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BashExecutionMessage, ToolResultMessage } from "../../lib/llm/index.js";
import { FullOutputFiles, sweepDue, sweepOldOutputFiles } from "./output-files.js";

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), "atomic-output-files-"))));
afterEach(() => rm(dir, { recursive: true, force: true }));

const logName = (n: number) => `atomic-bash-${n.toString(16).padStart(16, "0")}.log`;

async function makeFile(name: string, ageHours = 0): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, "output");
  const when = new Date(Date.now() - ageHours * 3_600_000);
  await utimes(path, when, when);
  return path;
}

const bashMessage = (fullOutputPath: string | null): BashExecutionMessage => ({
  role: "bashExecution",
  command: "seq 1 9999",
  output: "tail",
  exitCode: 0,
  cancelled: false,
  truncated: true,
  fullOutputPath,
  timestamp: 1,
});
const toolResult = (text: string, details?: unknown): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: "c1",
  toolName: "bash",
  content: [{ type: "text", text }],
  ...(details === undefined ? {} : { details }),
  isError: details === undefined,
  timestamp: 1,
});

describe("FullOutputFiles", () => {
  it("removes at exit the files no persisted session refers to", async () => {
    const files = new FullOutputFiles();
    const [inMemory, unstored, persisted, byToolDetails, byToolText] = await Promise.all([1, 2, 3, 4, 5].map((n) => makeFile(logName(n))));
    for (const path of [inMemory, unstored, persisted, byToolDetails, byToolText]) files.track(path!);
    files.noteStored(bashMessage(inMemory!), () => false);
    files.noteStored(bashMessage(persisted!), () => true);
    files.noteStored(toolResult("tail", { fullOutputPath: byToolDetails }), () => true);
    files.noteStored(toolResult(`tail\n\n[Showing lines 1-2 of 9. Full output: ${byToolText}]\n\nCommand exited with code 1`), () => true);
    expect(files.unkept().sort()).toEqual([inMemory, unstored].sort());
    await files.removeUnkept();
    expect((await readdir(dir)).sort()).toEqual([logName(3), logName(4), logName(5)]);
    expect(files.unkept()).toEqual([]);
  });

  it("does not ask whether the session is persisted when nothing is tracked", () => {
    const files = new FullOutputFiles();
    files.noteStored(bashMessage("/tmp/x"), () => {
      throw new Error("asked");
    });
  });
});

describe("sweepOldOutputFiles", () => {
  it("removes only Atomic's output files older than the retention", async () => {
    await makeFile(logName(1), 30);
    await makeFile(logName(2), 2);
    await makeFile("atomic-bash-notours.log", 30);
    await makeFile("other.log", 30);
    expect(await sweepOldOutputFiles(dir, 24)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([logName(2), "atomic-bash-notours.log", "other.log"].sort());
    expect(await sweepOldOutputFiles(dir, 1)).toBe(1);
    expect(await sweepOldOutputFiles(join(dir, "missing"), 1)).toBe(0);
  });
});

describe("sweepDue", () => {
  it("lets the first agent of a process sweep, the next ones only after the retention period", () => {
    const sweeps = { lastMs: Number.NEGATIVE_INFINITY };
    const hour = 3_600_000;
    expect(sweepDue(sweeps, 24, 10 * hour)).toBe(true);
    expect(sweepDue(sweeps, 24, 11 * hour)).toBe(false);
    expect(sweepDue(sweeps, 24, 33 * hour)).toBe(false);
    expect(sweepDue(sweeps, 24, 34 * hour)).toBe(true);
  });
});
