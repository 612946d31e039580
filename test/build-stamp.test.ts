/**
 * `npm test` skips the build when dist/ holds the build of the current sources (`npm ci` just made
 * it). Anything that could make that build differ must rebuild: an edited, added or removed
 * source, another build environment, an output removed, edited or added by hand.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { staleBuildReason, writeBuildStamp } from "../scripts/build-stamp.mjs";
import { tempDir } from "./helpers/temp.js";

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
const env = {};

beforeEach(() => {
  root = tempDir("atomic-build-stamp-");
  write("package.json", "{}");
  write("kernel/index.ts", "export const a = 1;");
  write("plugins/bash/index.ts", "export const b = 2;");
  write("dist/kernel/index.js", "export const a = 1;");
  write("dist/cli/bundle/main.cjs", "1");
  writeBuildStamp(root, env);
});

describe("the build stamp", () => {
  it("says a build is current only right after it was made", () => {
    expect(staleBuildReason(root, env)).toBeUndefined();
    rmSync(join(root, "node_modules/.cache/atomic-build/stamp.json"));
    expect(staleBuildReason(root, env)).toBe("no build stamp");
  });

  it("rebuilds after a source is edited, added or removed", () => {
    write("kernel/index.ts", "export const a = 2;");
    expect(staleBuildReason(root, env)).toBe("sources changed since the last build");
    write("kernel/index.ts", "export const a = 1;");
    expect(staleBuildReason(root, env)).toBeUndefined();
    write("lib/new.ts", "");
    expect(staleBuildReason(root, env)).toBe("sources changed since the last build");
    rmSync(join(root, "lib"), { recursive: true });
    rmSync(join(root, "plugins/bash/index.ts"));
    expect(staleBuildReason(root, env)).toBe("sources changed since the last build");
  });

  it("does not rebuild for a test file, which the build does not compile", () => {
    write("plugins/bash/index.test.ts", "test");
    expect(staleBuildReason(root, env)).toBeUndefined();
  });

  it("rebuilds under another build environment", () => {
    expect(staleBuildReason(root, { BUNDLE_NO_MINIFY: "1" })).toBe("sources changed since the last build");
  });

  it("rebuilds when an output was removed, edited or added after the build", () => {
    rmSync(join(root, "dist/cli/bundle/main.cjs"));
    expect(staleBuildReason(root, env)).toBe("dist/cli/bundle/main.cjs is missing");
    write("dist/cli/bundle/main.cjs", "1");
    utimesSync(join(root, "dist/cli/bundle/main.cjs"), new Date(2000, 1, 1), new Date(2000, 1, 1));
    expect(staleBuildReason(root, env)).toBe("dist/cli/bundle/main.cjs changed after the build");
    writeBuildStamp(root, env);
    write("dist/kernel/index.js", "export const a = 11;");
    expect(staleBuildReason(root, env)).toMatch(/^dist\/kernel\/index\.js changed after the build$/);
    writeBuildStamp(root, env);
    write("dist/kernel/extra.js", "");
    expect(staleBuildReason(root, env)).toBe("dist/kernel/extra.js was not written by the last build");
  });
});
