import { describe, expect, it } from "vitest";
import { promptFields } from "./prompt-content.js";

describe("ACP prompt blocks", () => {
  it("runs text inline, turns mentions into @paths, embeds resources as named fences and keeps images", () => {
    expect(
      promptFields([
        { type: "text", text: "Look at " },
        { type: "resource_link", uri: "file:///work/a%20b.ts", name: "a b.ts" },
        { type: "text", text: " and this:" },
        { type: "resource", resource: { uri: "file:///work/c.ts", text: "const c = 1;" } },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]),
    ).toEqual({ message: "Look at @/work/a b.ts and this:\n\n/work/c.ts:\n```\nconst c = 1;\n```\n", images: [{ type: "image", data: "AAAA", mimeType: "image/png" }] });
  });

  it("refuses audio (not advertised)", () => {
    expect(() => promptFields([{ type: "audio", data: "x", mimeType: "audio/wav" }])).toThrow("Audio prompts are not supported");
  });
});
