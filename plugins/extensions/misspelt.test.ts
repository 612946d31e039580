/** The definition checks of pi.registerTool and pi.registerCommand: a misspelt field is named. */
import { describe, expect, it } from "vitest";
import type { ExtensionHost } from "./host.js";
import { checkCommand } from "./commands.js";
import { adaptTool } from "./tool-adapter.js";
import type { ToolDefinition } from "./types/api.js";

// The checks run before the host is used: a definition that fails them never reaches it.
const host = {} as ExtensionHost;
const adapt = (tool: object) => () => adaptTool(host, "/ext/tools.ts", tool as ToolDefinition<any>);
const execute = async () => ({ content: [] });
const parameters = { type: "object", properties: {} };

describe("pi.registerTool's definition checks", () => {
  it("name a key that is a slip of a missing field", () => {
    expect(adapt({ name: "t", description: "d", paramters: parameters, execute })).toThrow(
      'registerTool("t"): parameters must be a TypeBox/JSON Schema object or a zod schema (it has "paramters": did you mean "parameters"?)',
    );
    expect(adapt({ name: "t", description: "d", parameters, exectue: execute })).toThrow(
      'registerTool("t"): execute must be a function (it has "exectue": did you mean "execute"?)',
    );
    expect(adapt({ name: "t", desciption: "d", parameters, execute })).toThrow(
      'description must be a string (what the model is told) (it has "desciption": did you mean "description"?)',
    );
  });

  it("say only what is wrong when no key is close, or the field is there with a wrong value", () => {
    expect(adapt({ name: "t", description: "d", parameters })).toThrow(/^registerTool\("t"\): execute must be a function$/);
    expect(adapt({ name: "t", description: "d", parameters: "x", execute, paramters: {} })).toThrow(/parameters must be a TypeBox\/JSON Schema object or a zod schema$/);
  });
});

describe("pi.registerCommand's options check", () => {
  it("names a key that is a slip of handler", () => {
    expect(() => checkCommand("c1", { description: "x", hanlder: async () => {} })).toThrow(
      'registerCommand("c1"): options need a handler(args, ctx) function (it has "hanlder": did you mean "handler"?)',
    );
    expect(() => checkCommand("c1", { description: "x" })).toThrow(/options need a handler\(args, ctx\) function$/);
  });
});
