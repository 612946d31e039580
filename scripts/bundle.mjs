// Production bundle: the CLI, the kernel and every built-in plugin in one ES module, so startup
// pays for one file instead of ~250 module loads; the in-process SDK (`atomic-agent/sdk`,
// dist/cli/sdk.js) is a second entry sharing the same chunks. Code that plugins import lazily (SDK
// adapters with the parts of the official SDKs they use, the HTML renderer, replay streams) stays in
// separate chunks, loaded on first use: bundled and minified, an SDK costs a fraction of loading
// its package's hundreds of files. marked/highlight.js (run in a worker), the ACP SDK (loaded only
// in ACP mode) and the transpiling jiti are never bundled. BUNDLE_NO_MINIFY=1 keeps the output
// readable (for profiling).
import { rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { rolldown } from "rolldown";
import { transform } from "rolldown/utils";

const EXTERNAL = [/^node:/, /^marked/, /^highlight\.js/, /^jiti$/, /^@agentclientprotocol\/sdk/];

const DIST = resolve("dist");
const OUT_DIR = join(DIST, "cli");
const MARK = "atomic-dist-file:";

/**
 * `new URL("./x.js", import.meta.url)` names a compiled file next to its module (a worker's
 * entry, loaded by path, never bundled). Bundled, the module lands in another folder, so the URL
 * is re-pointed from the chunk that holds it to the same file of the tsc output in dist/.
 */
const keepFileUrls = {
  name: "keep-file-urls",
  transform(code, id) {
    if (!id.startsWith(DIST + sep) || !code.includes("import.meta.url")) return null;
    const pattern = /new URL\((["'`])(\.{1,2}\/[^"'`]+\.js)\1,\s*import\.meta\.url\)/g;
    if (!pattern.test(code)) return null;
    return code.replace(pattern, (_, __, path) => `new URL(${JSON.stringify(MARK + relative(DIST, resolve(dirname(id), path)))}, import.meta.url)`);
  },
  renderChunk(code, chunk) {
    if (!code.includes(MARK)) return null;
    const from = dirname(join(OUT_DIR, chunk.fileName));
    return code.replace(/(["'`])atomic-dist-file:([^"'`]+)\1/g, (_, quote, path) => {
      const target = relative(from, join(DIST, path)).split(sep).join("/");
      return JSON.stringify(target.startsWith(".") ? target : `./${target}`);
    });
  },
};

/**
 * The OpenAI and Anthropic SDKs build a `Headers` and test `instanceof FormData` on every request;
 * on Node 20 either global loads undici (a first request pays for it). Their modules get those two
 * names from lib/provider-kit/sdk-globals instead: an import added where the global is meant (the
 * transformer's scope-aware `inject`), the SDK code itself unchanged.
 */
const SDK_GLOBALS = join(DIST, "lib/provider-kit/sdk-globals.js");
const INJECTED_SDK = /[\\/]node_modules[\\/](openai|@anthropic-ai[\\/]sdk)[\\/]/;
const sdkGlobals = {
  name: "sdk-globals",
  async transform(code, id) {
    if (!INJECTED_SDK.test(id) || !/\b(Headers|FormData)\b/.test(code)) return null;
    const result = await transform(id, code, { lang: "js", inject: { Headers: [SDK_GLOBALS, "Headers"], FormData: [SDK_GLOBALS, "FormData"] } });
    if (result.errors.length > 0) throw new Error(`sdk-globals: ${id}: ${result.errors.map((error) => error.message).join("; ")}`);
    return { code: result.code };
  },
};

rmSync("dist/cli/chunks", { recursive: true, force: true });
const bundle = await rolldown({
  input: { atomic: "dist/cli/atomic.js", sdk: "dist/sdk/index.js" },
  platform: "node",
  external: (id) => EXTERNAL.some((pattern) => pattern.test(id)),
  plugins: [keepFileUrls, sdkGlobals],
  logLevel: "warn",
});
await bundle.write({
  dir: "dist/cli",
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  minify: !process.env.BUNDLE_NO_MINIFY,
});
await bundle.close();
