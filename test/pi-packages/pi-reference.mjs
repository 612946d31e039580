// What pi 1.6 itself loads from a package: run under Node >= 22.19 (pi's minimum) by
// test/pi-packages.test.ts, which compares it with what Atomic loads. A fresh in-memory pi session
// (its SDK) loads the folder as `pi -e <folder>` would, starts the session (session_start,
// resources_discover) and reports, as one JSON object on stdout: the extension files, commands
// (as invoked), tools, flags, skills and prompt templates. It exits as soon as it has answered:
// extensions keep timers that outlive a disposed session.
//
//   node22 pi-reference.mjs <pi package dir> <package folder>
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [piDir, folder] = process.argv.slice(2);
const pi = await import(pathToFileURL(join(piDir, "dist/index.js")).href);
// Extensions print to stdout while loading (warnings, banners): stdout is this script's answer.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
console.log = (...args) => console.error(...args);

const home = mkdtempSync(join(tmpdir(), "pi-reference-"));
const cwd = join(home, "project");
const agentDir = join(home, "agent");
mkdirSync(cwd, { recursive: true });
process.env.HOME = home;
let out;
try {
  const settingsManager = pi.SettingsManager.inMemory({});
  const loader = new pi.DefaultResourceLoader({ cwd, agentDir, settingsManager, additionalExtensionPaths: [folder], noContextFiles: true, noThemes: true });
  await loader.reload();
  const { session } = await pi.createAgentSession({ cwd, agentDir, settingsManager, resourceLoader: loader, sessionManager: pi.SessionManager.inMemory(cwd) });
  await session.bindExtensions({});
  const loaded = loader.getExtensions();
  const names = (pick) => [...new Set(loaded.extensions.flatMap(pick))].sort();
  out = {
    extensions: loaded.extensions.map((extension) => extension.resolvedPath ?? extension.path),
    errors: loaded.errors.map((error) => error.error),
    commands: session.extensionRunner
      .getRegisteredCommands()
      .map((command) => command.invocationName)
      .sort(),
    tools: names((extension) => [...extension.tools.keys()]),
    flags: names((extension) => [...extension.flags.keys()]),
    skills: session.resourceLoader
      .getSkills()
      .skills.map((skill) => skill.name)
      .sort(),
    prompts: session.promptTemplates.map((template) => template.name).sort(),
  };
} catch (error) {
  out = { fatal: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
rmSync(home, { recursive: true, force: true });
write(`${JSON.stringify(out)}\n`, () => process.exit(0));
