import { execFile } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, it } from "vitest";
import { tempDir } from "./temp.js";

const REPO = resolve(import.meta.dirname, "../..");
const STORE = join(REPO, "node_modules/.cache/atomic-tests/transpile");
const run = promisify(execFile);

const name = `race-check-${process.pid}`;
afterEach(() => rmSync(join(STORE, name), { recursive: true, force: true }));

it("test files seeding from and keeping into one store at the same time never see an entry missing", async () => {
  // Each process seeds a fresh folder, writes every entry anew (as jiti does for a changed
  // source) and keeps it: the keeps of one race the seeds of the others.
  const script = join(tempDir(), "seed-and-keep.mjs");
  writeFileSync(
    script,
    `import { createJiti } from ${JSON.stringify(join(REPO, "node_modules/jiti/lib/jiti.mjs"))};
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { seededTranspileCache } = await createJiti(import.meta.url).import(${JSON.stringify(join(import.meta.dirname, "transpile-cache.ts"))});
for (let round = 0; round < 25; round++) {
  const folder = mkdtempSync(join(tmpdir(), "seed-"));
  const keep = seededTranspileCache(${JSON.stringify(name)}, folder);
  for (let entry = 0; entry < 20; entry++) writeFileSync(join(folder, "entry" + entry + ".mjs"), String(round).repeat(4096));
  keep();
  rmSync(folder, { recursive: true });
}
`,
  );
  await Promise.all([1, 2, 3, 4].map(() => run(process.execPath, [script], { cwd: REPO })));
  const kept = readdirSync(join(STORE, name)).sort();
  expect(kept).toEqual(Array.from({ length: 20 }, (_, entry) => `entry${entry}.mjs`).sort());
});
