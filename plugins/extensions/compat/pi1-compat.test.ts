import { describe, expect, it } from "vitest";
import { uuidv7 } from "./pi-ai.js";
import { Container, Key, matchesKey, Spacer, Text, truncateToWidth, TruncatedText, visibleWidth, wrapTextWithAnsi } from "./pi-tui.js";
import { fromTranscript, getCurrentSystemPrompt, getCurrentTools, toTranscript } from "./transcript.js";

const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });

describe("pi 1.x transcript helpers", () => {
  it("fold system messages: contents joined, sections patched by name, tools added and removed in order", () => {
    const messages = [
      { role: "system", content: "Base.", sections: { a: "A1", b: "B" }, toolsAdded: [tool("read"), tool("bash")], timestamp: 1 },
      { role: "user", content: "hi", timestamp: 2 },
      { role: "system", content: [{ type: "text", text: "More." }], sections: { a: "A2", b: null }, toolsRemoved: [{ name: "bash" }], toolsAdded: [tool("ls")], timestamp: 3 },
    ];
    expect(getCurrentSystemPrompt(messages)).toBe("Base.\n\nMore.\n\nA2");
    expect(getCurrentTools(messages).map((t) => t.name)).toEqual(["read", "ls"]);
  });

  it("a request goes into transcript form and back unchanged; without a leading system message it is refused", () => {
    const parts = { systemPrompt: "Be kind.", tools: [tool("read")], messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };
    const transcript = toTranscript(parts);
    expect(transcript[0]).toMatchObject({ role: "system", content: "Be kind.", toolsAdded: [tool("read")] });
    expect(fromTranscript(transcript)).toEqual(parts);
    expect(fromTranscript(transcript.slice(1))).toBeUndefined();
  });
});

describe("pi-ai's uuidv7", () => {
  it("is a version 7 UUID whose first 48 bits are the milliseconds, so later ids sort after earlier ones", () => {
    const id = uuidv7(0x0123456789ab);
    expect(id).toMatch(/^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7(1000) < uuidv7(2000)).toBe(true);
  });
});

describe("headless pi-tui", () => {
  it("measures and cuts plain text, ANSI sequences not counted", () => {
    expect(visibleWidth("\u001b[31mred\u001b[0m")).toBe(3);
    expect(truncateToWidth("abcdefgh", 5)).toBe("ab...");
    expect(truncateToWidth("ab", 4, "...", true)).toBe("ab  ");
    expect(wrapTextWithAnsi("one two three", 7)).toEqual(["one two", "three"]);
    expect(wrapTextWithAnsi("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });

  it("components render their text as lines; keys never match", () => {
    class Panel extends Container {}
    const panel = new Panel();
    panel.addChild(new Text("hello world", 0, 0));
    panel.addChild(new Spacer(1));
    panel.addChild(new TruncatedText("a long line here"));
    expect(panel.render(8)).toEqual(["hello", "world", "", "a lon..."]);
    expect(matchesKey("\u001b", Key.escape)).toBe(false);
    expect(Key.ctrl("c")).toBe("ctrl+c");
  });
});
