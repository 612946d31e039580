import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { promptTexts, readPipedStdin } from "./prompts.js";

describe("print-mode prompts", () => {
  it("takes the arguments in order and puts piped stdin before the first one", () => {
    expect(promptTexts(["one", "two"], undefined, "print")).toEqual(["one", "two"]);
    expect(promptTexts(["explain"], "some code", "json")).toEqual(["some code\n\nexplain"]);
    expect(promptTexts([], "only stdin", "print")).toEqual(["only stdin"]);
  });

  it("no argument and nothing piped is a usage error saying how", () => {
    expect(() => promptTexts([], undefined, "print")).toThrow(expect.objectContaining({ code: "E_USAGE", message: expect.stringContaining('atomic -p "your prompt"') }));
    expect(() => promptTexts([], undefined, "json")).toThrow("atomic --mode json needs a prompt");
  });

  it("reads a pipe to its end (blank is none) and never a terminal", async () => {
    const pipe = (text: string) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY: false }) as unknown as NodeJS.ReadStream;
    expect(await readPipedStdin(pipe("  data\n"))).toBe("data");
    expect(await readPipedStdin(pipe(" \n"))).toBeUndefined();
    expect(await readPipedStdin({ isTTY: true } as NodeJS.ReadStream)).toBeUndefined();
  });

  it("stops reading past the limit with an error that says what to do", async () => {
    const pipe = Object.assign(Readable.from([Buffer.alloc(6, 0x61), Buffer.alloc(6, 0x61)]), { isTTY: false }) as unknown as NodeJS.ReadStream;
    await expect(readPipedStdin(pipe, 10)).rejects.toThrow("more than a prompt can use");
  });
});
