/** pi's install paths, image helpers and local shell backends as extensions get them: real answers. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertToPng, detectSupportedImageMimeTypeFromFile, formatDimensionNote, resizeImage } from "./images.js";
import { getDocsPath, getPackageDir, getReadmePath } from "./paths.js";
import { createPowerShellToolDefinition } from "./powershell-tool.js";
import { createLocalBashOperations, getShellConfig } from "./shell-ops.js";

/** A 3x2 PNG header (enough for the type and size). */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000030000000208060000", "hex");

describe("pi's system helpers in Atomic", () => {
  it("paths name Atomic's installed package", () => {
    expect(existsSync(join(getPackageDir(), "package.json"))).toBe(true);
    expect(existsSync(getReadmePath())).toBe(true);
    expect(existsSync(getDocsPath())).toBe(true);
  });

  it("images: type from the file's bytes, size from its header, no codec needed for an image that fits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-img-"));
    writeFileSync(join(dir, "a.bin"), PNG);
    writeFileSync(join(dir, "b.txt"), "hello");
    expect(await detectSupportedImageMimeTypeFromFile(join(dir, "a.bin"))).toBe("image/png");
    expect(await detectSupportedImageMimeTypeFromFile(join(dir, "b.txt"))).toBeNull();
    const fits = await resizeImage(PNG, "image/png");
    expect(fits).toMatchObject({ width: 3, height: 2, wasResized: false, data: PNG.toString("base64") });
    expect(formatDimensionNote(fits!)).toBeUndefined();
    expect(await resizeImage(PNG, "image/png", { maxWidth: 2 })).toBeNull();
    expect(formatDimensionNote({ ...fits!, originalWidth: 6, originalHeight: 4, wasResized: true })).toMatch(/original 6x4, displayed at 3x2.*2\.00/);
    expect(await convertToPng("abc", "image/png")).toEqual({ data: "abc", mimeType: "image/png" });
    expect(await convertToPng("abc", "image/jpeg")).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the local bash backend runs a command, streams its output and answers its exit code", async () => {
    expect(getShellConfig().args).toEqual(["-c"]);
    expect(() => getShellConfig("/no/such/shell")).toThrow("Custom shell path not found: /no/such/shell");
    const chunks: Buffer[] = [];
    const result = await createLocalBashOperations().exec("echo out; echo err >&2; exit 3", tmpdir(), { onData: (data) => chunks.push(data) });
    expect(result.exitCode).toBe(3);
    expect(Buffer.concat(chunks).toString().split("\n").sort()).toEqual(["", "err", "out"]);
    await expect(createLocalBashOperations().exec("true", "/no/such/dir", { onData: () => undefined })).rejects.toThrow(/Working directory does not exist/);
    const aborted = new AbortController();
    const run = createLocalBashOperations().exec("sleep 30", tmpdir(), { onData: () => undefined, signal: aborted.signal });
    aborted.abort();
    await expect(run).rejects.toThrow("aborted");
  });

  it("the powershell tool runs on Windows only, as pi's, or through the operations given", async () => {
    if (process.platform !== "win32") {
      await expect(createPowerShellToolDefinition(tmpdir()).execute("1", { command: "Get-Date" }, undefined, undefined, undefined as never)).rejects.toThrow(
        "The powershell tool is only available on Windows.",
      );
    }
    const tool = createPowerShellToolDefinition(tmpdir(), { operations: createLocalBashOperations() });
    const result = await tool.execute("1", { command: "echo hi" }, undefined, undefined, undefined as never);
    expect(result.content).toEqual([{ type: "text", text: "hi\n" }]);
  });
});
