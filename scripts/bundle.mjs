// Production bundles: the CLI, the kernel and every built-in plugin in one file, so startup pays
// for one file instead of ~250 module loads. The CLI's is CommonJS (dist/cli/bundle/, run by
// dist/cli/atomic.cjs through V8's code cache, see cli/compile-cache.cts); the in-process SDK's
// (`atomic-agent/sdk`, dist/cli/sdk.js) is an ES module. Code that plugins import lazily (SDK
// adapters with the parts of the official SDKs they use, the HTML renderer, replay streams) stays in
// separate chunks, loaded on first use: bundled and minified, an SDK costs a fraction of loading
// its package's hundreds of files. marked/highlight.js (run in a worker), the ACP SDK (loaded only
// in ACP mode) and the Bedrock SDK (see EXTERNAL) are never bundled; jiti only in the CLI's (see
// bundledJiti).
// BUNDLE_NO_MINIFY=1 keeps the output readable (for profiling).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { rolldown } from "rolldown";
import { parseAst } from "rolldown/parseAst";
import { transform } from "rolldown/utils";

// The Bedrock SDK stays a package of its own, loaded from node_modules on first use: bundled, it
// shares Anthropic's SDK with the Anthropic adapter, and every Anthropic request would load the
// whole SDK (all its resources, OpenTelemetry) that only the Bedrock client pulls in.
const EXTERNAL = [/^node:/, /^marked/, /^highlight\.js/, /^jiti$/, /^@agentclientprotocol\/sdk/, /^@anthropic-ai\/bedrock-sdk/, /^@aws-sdk\/client-bedrock-runtime/];

const DIST = resolve("dist");
const MARK = "atomic-dist-file:";

/**
 * `new URL("./x.js", import.meta.url)` names a compiled file next to its module (a worker's
 * entry, loaded by path, never bundled; package.json; the compiled model catalog, .jsonl). Bundled, the module lands in another
 * folder, so the URL is re-pointed from the chunk that holds it to the same file of the tsc output
 * in dist/ (or the package root).
 */
const keepFileUrls = (outDir) => ({
  name: "keep-file-urls",
  transform(code, id) {
    if (!id.startsWith(DIST + sep) || !code.includes("import.meta.url")) return null;
    const pattern = /new URL\((["'`])(\.{1,2}\/[^"'`]+\.js(?:onl?)?)\1,\s*import\.meta\.url\)/g;
    if (!pattern.test(code)) return null;
    return code.replace(pattern, (_, __, path) => `new URL(${JSON.stringify(MARK + relative(DIST, resolve(dirname(id), path)))}, import.meta.url)`);
  },
  renderChunk(code, chunk) {
    if (!code.includes(MARK)) return null;
    const from = dirname(join(outDir, chunk.fileName));
    return code.replace(/(["'`])atomic-dist-file:([^"'`]+)\1/g, (_, _quote, path) => {
      const target = relative(from, join(DIST, path)).split(sep).join("/");
      return JSON.stringify(target.startsWith(".") ? target : `./${target}`);
    });
  },
});

/**
 * The OpenAI and Anthropic SDKs build a `Headers`, test `instanceof FormData` and read
 * `globalThis.ReadableStream` on every request; on Node 20 the first two globals load undici, and
 * the third loads web streams on any Node (a first request pays for them). Their modules get those
 * names from lib/provider-kit/sdk-globals instead: `globalThis.ReadableStream` renamed (`define`,
 * which rewrites expressions, not strings), then an import added where each global is meant (the
 * transformer's scope-aware `inject`), the SDK code itself otherwise unchanged.
 */
const SDK_GLOBALS = join(DIST, "lib/provider-kit/sdk-globals.js");
const INJECTED_SDK = /[\\/]node_modules[\\/](openai|@anthropic-ai[\\/]sdk)[\\/]/;
const SDK_READABLE_STREAM = "__atomicSdkReadableStream";
const sdkGlobals = {
  name: "sdk-globals",
  async transform(code, id) {
    if (!INJECTED_SDK.test(id) || !/\b(Headers|FormData|ReadableStream)\b/.test(code)) return null;
    const fail = (result) => {
      if (result.errors.length > 0) throw new Error(`sdk-globals: ${id}: ${result.errors.map((error) => error.message).join("; ")}`);
      return result.code;
    };
    const renamed = code.includes("globalThis.ReadableStream")
      ? fail(await transform(id, code, { lang: "js", define: { "globalThis.ReadableStream": SDK_READABLE_STREAM } }))
      : code;
    const inject = { Headers: [SDK_GLOBALS, "Headers"], FormData: [SDK_GLOBALS, "FormData"], [SDK_READABLE_STREAM]: [SDK_GLOBALS, "ReadableStream"] };
    return { code: fail(await transform(id, renamed, { lang: "js", inject })) };
  },
};

/**
 * jiti in the CLI bundle: a chunk loaded on first use (lib/jiti-loader's body becomes an
 * `import("jiti")` the bundler follows), so the launcher's code cache covers its 190 KB instead of
 * Node's CommonJS loader compiling them at every start with an extension. Its babel (1.5 MB,
 * needed only to transpile a file the cache lacks) stays in the package, found from there.
 */
const JITI_LOADER = join(DIST, "lib/jiti-loader/index.js");
const JITI_WRAPPER = /[\\/]node_modules[\\/]jiti[\\/]lib[\\/]jiti\.mjs$/;
const JITI_BABEL = 'createRequire(import.meta.url)("../dist/babel.cjs")';
const bundledJiti = {
  name: "bundled-jiti",
  transform(code, id) {
    if (id === JITI_LOADER) return 'export async function loadJiti() {\n  return await import("jiti");\n}\n';
    if (!JITI_WRAPPER.test(id)) return null;
    if (!code.includes(JITI_BABEL)) throw new Error(`bundled-jiti: ${id} no longer loads babel as ${JITI_BABEL}`);
    return code.replace(JITI_BABEL, 'createRequire(createRequire(__filename).resolve("jiti/package.json"))("./dist/babel.cjs")');
  },
};

/**
 * fdir (tinyglobby's walker) requires picomatch at its top level through `createRequire`, which
 * the bundler cannot follow: every process that walks a folder for packages or extensions loaded
 * and compiled picomatch's package from node_modules (~3-5 ms), beside the copy tinyglobby's own
 * import already put in the bundle. The require becomes that import.
 */
const FDIR = /[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/;
const FDIR_PICOMATCH = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
const bundledPicomatch = {
  name: "bundled-picomatch",
  transform(code, id) {
    if (!FDIR.test(id)) return null;
    if (!code.includes(FDIR_PICOMATCH)) throw new Error(`bundled-picomatch: ${id} no longer requires picomatch as expected`);
    return `import __atomicPicomatch from "picomatch";\n${code.replace(FDIR_PICOMATCH, "pm = __atomicPicomatch;")}`;
  },
};

const external = (patterns) => (id) => patterns.some((pattern) => pattern.test(id));
const minify = !process.env.BUNDLE_NO_MINIFY;

/**
 * A script run through `vm.Script` cannot `import()` without an experimental flag, so the CLI
 * bundle's remaining dynamic imports (node: modules, external packages, user files) call the
 * `__atomicImport` its loader passes in, which imports from a real module.
 */
function routeDynamicImports(file) {
  const code = readFileSync(file, "utf8");
  const starts = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node.type !== "string") return;
    if (node.type === "ImportExpression") starts.push(node.start);
    for (const value of Object.values(node)) if (value && typeof value === "object") visit(value);
  };
  visit(parseAst(code, { sourceType: "script" }).body);
  let out = code;
  for (const start of starts.sort((a, b) => b - a)) {
    if (out.slice(start, start + 6) !== "import") throw new Error(`bundle: no import() at ${file}:${start}`);
    out = `${out.slice(0, start)}__atomicImport${out.slice(start + 6)}`;
  }
  writeFileSync(file, out);
}

const CLI_DIR = join(DIST, "cli", "bundle");
rmSync(CLI_DIR, { recursive: true, force: true });
const cli = await rolldown({
  input: { main: "dist/cli/main.js" },
  platform: "node",
  // jiti's native entry reads import.meta, which a CommonJS bundle cannot keep.
  external: external([...EXTERNAL.filter((pattern) => !pattern.test("jiti")), /^jiti\//]),
  plugins: [keepFileUrls(CLI_DIR), sdkGlobals, bundledJiti, bundledPicomatch],
  logLevel: "warn",
});
const { output } = await cli.write({
  dir: CLI_DIR,
  format: "cjs",
  entryFileNames: "main-[hash].cjs",
  chunkFileNames: "chunks/[name]-[hash].cjs",
  // Everything startup needs in one chunk: each file is a read and a script to set up. So is the
  // provider toolkit's request half, which every first request loads (eight small chunks
  // otherwise). The SDKs keep the bundler's own split: a group takes every module that matches,
  // those imported only on demand too (a group of the Anthropic adapter took the Bedrock one, and
  // with it the Bedrock SDK, into every Anthropic request).
  codeSplitting: {
    groups: [
      { name: "startup", tags: ["$initial"], priority: 2 },
      { name: "provider-kit", test: /[\\/]dist[\\/]lib[\\/]provider-kit[\\/]/, priority: 1 },
    ],
  },
  // ASCII source is read as a one-byte string, with no UTF-8 decoding (see compile-cache.cts).
  charset: "ascii",
  minify,
});
await cli.close();
for (const file of output) if (file.type === "chunk") routeDynamicImports(join(CLI_DIR, file.fileName));
const entry = output.find((file) => file.type === "chunk" && file.isEntry);
writeFileSync(join(CLI_DIR, "entry.json"), `${JSON.stringify({ main: entry.fileName })}\n`);

rmSync("dist/cli/chunks", { recursive: true, force: true });
const sdk = await rolldown({
  input: { sdk: "dist/sdk/index.js" },
  platform: "node",
  external: external(EXTERNAL),
  plugins: [keepFileUrls(join(DIST, "cli")), sdkGlobals, bundledPicomatch],
  logLevel: "warn",
});
await sdk.write({ dir: "dist/cli", format: "esm", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js", minify });
await sdk.close();
