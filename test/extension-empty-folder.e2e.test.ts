/** `-e <folder>` with nothing loadable: the agent exits 1 naming the folder, as pi 1.6 does (issue 39, item 6). */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const CLI = resolve(import.meta.dirname, "../dist/cli/atomic.cjs");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(extension: string, home: string) {
  return spawnSync(process.execPath, [CLI, "--mode", "rpc", "-e", extension], {
    input: '{"type":"get_state","id":"1"}\n',
    env: { ...process.env, HOME: home, ATOMIC_CODING_AGENT_DIR: join(home, "agent") },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("-e with a folder", () => {
  it("exits 1 with the reason when the folder has nothing to load; a folder with an index starts", () => {
    const home = mkdtempSync(join(tmpdir(), "atomic-empty-ext-"));
    dirs.push(home);
    const empty = join(home, "empty");
    mkdirSync(empty);
    writeFileSync(join(empty, "README.md"), "not an extension\n");
    const refused = run(empty, home);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Nothing to load from -e ${empty}`);
    expect(refused.stdout).toBe("");
    const good = join(home, "good");
    mkdirSync(good);
    writeFileSync(join(good, "index.js"), "export default function () {}\n");
    const started = run(good, home);
    expect(started.status).toBe(0);
    expect(started.stdout).toContain('"command":"get_state","success":true');
  });
});
