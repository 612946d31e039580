import { describe, expect, it } from "vitest";
import { parametersJsonSchema } from "../../kernel/index.js";
import { RegexWorkers } from "./regex-search.js";
import { fileTools } from "./index.js";

describe("the file tools' generated JSON Schemas", () => {
  it("equal their zod schemas converted (else run `npm run tool-schemas`)", async () => {
    const workers = new RegexWorkers();
    const tools = fileTools(workers);
    expect(tools.map((tool) => tool.name)).toEqual(["read", "edit", "write", "grep", "find", "ls"]);
    for (const tool of tools) {
      expect(tool.precomputedJsonSchema, `${tool.name}: json-schemas.generated.ts is stale; run npm run tool-schemas`).toEqual(parametersJsonSchema(tool.parameters));
    }
    await workers.close();
  });
});
