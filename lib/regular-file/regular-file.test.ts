import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp.js";
import { NotRegularFileError, openRegularForRead, openRegularForWrite } from "./index.js";

describe.skipIf(process.platform === "win32")("regular files only", () => {
  it("refuses a FIFO for reading and for writing without waiting for the other end", async () => {
    const dir = tempDir("atomic-regular-");
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    await expect(openRegularForRead(fifo)).rejects.toThrow(new NotRegularFileError(fifo, "FIFO"));
    await expect(openRegularForWrite(fifo)).rejects.toThrow(`${fifo} is a FIFO, not a regular file`);
    await expect(openRegularForRead("/dev/null")).rejects.toThrow("/dev/null is a character device, not a regular file");
    await expect(openRegularForRead(dir)).rejects.toThrow(`${dir} is a directory, not a regular file`);
  });

  it("creates files 0600, truncates only accepted targets, appends on request", async () => {
    const dir = tempDir("atomic-regular-");
    const path = join(dir, "out.txt");
    let handle = await openRegularForWrite(path);
    await handle.writeFile("first");
    await handle.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await expect(openRegularForWrite(path, { refuse: () => "not this one" })).rejects.toThrow("not this one");
    expect(readFileSync(path, "utf8")).toBe("first");
    handle = await openRegularForWrite(path, { how: "append" });
    await handle.write(" second");
    await handle.close();
    expect(readFileSync(path, "utf8")).toBe("first second");
    writeFileSync(path, "long old content");
    handle = await openRegularForWrite(path);
    await handle.write("new");
    await handle.close();
    expect(readFileSync(path, "utf8")).toBe("new");
  });
});
