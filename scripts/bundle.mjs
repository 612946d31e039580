// Production bundle: the CLI, the kernel and every built-in plugin in one ES module, so startup
// pays for one file instead of ~250 module loads. Code that plugins import lazily (SDK adapters,
// the HTML renderer, replay streams) stays in separate chunks, loaded on first use; the SDKs
// themselves, marked/highlight.js and the transpiling jiti are never bundled.
import { rmSync } from "node:fs";
import { rolldown } from "rolldown";

const EXTERNAL = [/^node:/, /^@anthropic-ai\/sdk/, /^openai/, /^@google\/genai/, /^marked/, /^highlight\.js/, /^jiti$/];

rmSync("dist/cli/chunks", { recursive: true, force: true });
const bundle = await rolldown({
  input: { atomic: "dist/cli/atomic.js" },
  platform: "node",
  external: (id) => EXTERNAL.some((pattern) => pattern.test(id)),
  logLevel: "warn",
});
await bundle.write({
  dir: "dist/cli",
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  minify: true,
});
await bundle.close();
