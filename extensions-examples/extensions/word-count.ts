/**
 * Example extension: a custom tool for the model. `word_count` counts lines, words and
 * characters of a file in the working folder. Parameters are a TypeBox schema (Atomic's `Type`,
 * plain JSON Schema underneath): the kernel validates every call against it, so `execute` gets
 * typed, checked arguments. A thrown error becomes an error result the model can read. It
 * imports the API under Atomic's own name, `atomic-agent/extensions` (pi's package names work too).
 *
 * Install: copy into ~/.atomic/agent/extensions/, or `atomic --mode rpc -e ./word-count.ts`.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { defineTool, Type, type ExtensionAPI } from "atomic-agent/extensions";

const wordCount = defineTool({
  name: "word_count",
  label: "Word count",
  description: "Count the lines, words and characters of a text file (path relative to the working folder).",
  parameters: Type.Object({
    path: Type.String({ description: "File to count" }),
    unit: Type.Optional(Type.Union([Type.Literal("lines"), Type.Literal("words"), Type.Literal("chars")], { description: "Only this count" })),
  }),
  async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
    const text = await readFile(resolve(ctx.cwd, params.path), "utf8");
    const counts = { lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), words: text.split(/\s+/).filter(Boolean).length, chars: text.length };
    const shown = params.unit ? { [params.unit]: counts[params.unit] } : counts;
    return {
      content: [
        {
          type: "text",
          text: Object.entries(shown)
            .map(([unit, n]) => `${unit}: ${n}`)
            .join("\n"),
        },
      ],
      details: counts,
    };
  },
});

export default function (pi: ExtensionAPI) {
  pi.registerTool({ ...wordCount, promptGuidelines: ["Use word_count instead of wc for counting words in a file."] });
}
