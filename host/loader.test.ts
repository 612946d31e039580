import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../kernel/index.js";
import { isBuiltinSpec, PluginLoader } from "./index.js";

// The package's public entry (what `import "atomic-agent"` means to a plugin author).
const KERNEL_ENTRY = fileURLToPath(new URL("../index.ts", import.meta.url));

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function loader() {
  const root = mkdtempSync(join(tmpdir(), "atomic-loader-"));
  roots.push(root);
  const builtinDir = join(root, "builtin");
  mkdirSync(join(builtinDir, "hello"), { recursive: true });
  writeFileSync(join(builtinDir, "hello", "index.js"), "export default { name: 'hello', apply() {} };\n");
  return { root, loader: new PluginLoader({ builtinDir, baseDir: root, aliases: { "atomic-agent": KERNEL_ENTRY } }) };
}

describe("plugin loader", () => {
  it("tells built-in names from paths", () => {
    expect(isBuiltinSpec("transport-rpc")).toBe(true);
    expect(isBuiltinSpec("./x.ts")).toBe(false);
    expect(isBuiltinSpec("/abs/x.ts")).toBe(false);
  });

  it("loads a built-in natively", async () => {
    const { loader: l } = loader();
    expect((await l.load("hello")).name).toBe("hello");
  });

  it("transpiles a user .ts plugin that imports the kernel through the alias", async () => {
    const { root, loader: l } = loader();
    writeFileSync(join(root, "mine.ts"), `import { definePlugin } from "atomic-agent";\nconst n: string = "mine";\nexport default definePlugin({ name: n, apply() {} });\n`);
    expect((await l.load("./mine.ts")).name).toBe("mine");
  });

  it("a compiled .mjs plugin outside any package resolves the kernel through the same alias", async () => {
    const { root, loader: l } = loader();
    writeFileSync(join(root, "loose.mjs"), `import { definePlugin } from "atomic-agent";\nexport default definePlugin({ name: "loose", apply() {} });\n`);
    expect((await l.load("./loose.mjs")).name).toBe("loose");
  });

  it("a compiled plugin importing a package nobody provides fails naming it", async () => {
    const { root, loader: l } = loader();
    writeFileSync(join(root, "needs.mjs"), `import "no-such-package-xyz";\nexport default {};\n`);
    await expect(l.load("./needs.mjs")).rejects.toThrow(/no-such-package-xyz/);
  });

  it("a module without a plugin default export is a coded error", async () => {
    const { root, loader: l } = loader();
    writeFileSync(join(root, "bad.ts"), "export const x = 1;\n");
    await expect(l.load("./bad.ts")).rejects.toMatchObject({ code: ErrorCode.PLUGIN_INVALID });
  });

  it("a missing plugin names the plugin spec", async () => {
    const { loader: l } = loader();
    await expect(l.load("does-not-exist")).rejects.toMatchObject({ code: ErrorCode.PLUGIN_LOAD, plugin: "does-not-exist" });
  });
});
