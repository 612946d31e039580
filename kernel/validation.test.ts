import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatValidationIssues } from "./validation.js";

describe("validation issues as lines", () => {
  it("name the path and the type expected; a schema's own message for a wrong type replaces the type's name", () => {
    const schema = z.object({
      count: z.number(),
      mode: z.object(
        { name: z.string() },
        { error: (issue) => (typeof issue.input === "string" ? `expected an object, such as {"name": ${JSON.stringify(issue.input)}}` : undefined) },
      ),
    });
    const lines = (input: unknown) => formatValidationIssues(schema.safeParse(input).error!);
    expect(lines({ count: "3", mode: "x" })).toEqual(["Invalid count: expected number", 'Invalid mode: expected an object, such as {"name": "x"}']);
    expect(lines({ count: 3, mode: 7 })).toEqual(["Invalid mode: expected object"]);
  });

  it("a union says what each branch wanted, or the one branch the value got into", () => {
    const schema = z.object({
      sandbox: z.union([z.enum(["off", "read-only"]), z.object({ network: z.union([z.boolean(), z.literal("ask")]).optional() })]),
    });
    const lines = (input: unknown) => formatValidationIssues(schema.safeParse(input).error!);
    expect(lines({ sandbox: "bogus" })).toEqual(['Invalid sandbox: expected one of "off", "read-only" or object']);
    expect(lines({ sandbox: 3 })).toEqual(['Invalid sandbox: expected one of "off", "read-only" or object']);
    expect(lines({ sandbox: { network: "yes" } })).toEqual(['Invalid sandbox.network: expected boolean or "ask"']);
  });
});
