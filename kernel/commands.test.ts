import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CommandRegistry, defineCommand, ErrorCode } from "./index.js";

function registry() {
  const r = new CommandRegistry();
  r.register(
    defineCommand({
      name: "prompt",
      input: z.object({
        message: z.string(),
        images: z.array(z.object({ type: z.literal("image"), data: z.string(), mimeType: z.string() })).optional(),
        streamingBehavior: z.enum(["steer", "followUp"]).optional(),
      }),
      run: (input) => ({ echoed: input.message, images: input.images?.length ?? 0 }),
    }),
  );
  r.register(defineCommand({ name: "fast", lane: "immediate", input: z.object({}), run: () => undefined }));
  return r;
}

describe("command registry", () => {
  it("validates and runs, ignoring unknown fields", async () => {
    expect(await registry().invoke("prompt", { type: "prompt", id: 1, message: "hi", future: true })).toEqual({ echoed: "hi", images: 0 });
  });

  it.each([
    [{}, "Invalid message: expected string"],
    [{ message: 5 }, "Invalid message: expected string"],
    [{ message: "x", images: [{ type: "image", data: 1, mimeType: "image/png" }] }, "Invalid images.0.data: expected string"],
    [{ message: "x", images: "nope" }, "Invalid images: expected array"],
    [{ message: "x", streamingBehavior: "later" }, 'Invalid streamingBehavior: expected one of "steer", "followUp"'],
  ])("names the bad field: %j", async (raw, error) => {
    await expect(registry().invoke("prompt", raw)).rejects.toMatchObject({ code: ErrorCode.INVALID_INPUT, message: error });
  });

  it("unknown commands are coded", async () => {
    await expect(registry().invoke("write", {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_COMMAND, message: "Unknown command: write" });
  });

  it("reports lanes", () => {
    const r = registry();
    expect(r.lane("fast")).toBe("immediate");
    expect(r.lane("prompt")).toBe("ordinary");
  });

  it("produces JSON Schema from the same zod schema", () => {
    const schema = registry().jsonSchema("prompt") as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(["type", "message"]);
    expect(schema.properties.type).toEqual({ const: "prompt" });
    expect(schema.properties.streamingBehavior).toMatchObject({ enum: ["steer", "followUp"] });
  });

  it("a throwing handler becomes a coded error with its plugin", async () => {
    const r = new CommandRegistry();
    r.register(
      defineCommand({
        name: "boom",
        input: z.object({}),
        run: () => {
          throw new Error("kaput");
        },
      }),
      "demo",
    );
    await expect(r.invoke("boom", {})).rejects.toMatchObject({ code: ErrorCode.INTERNAL, plugin: "demo", message: "kaput" });
  });
});
