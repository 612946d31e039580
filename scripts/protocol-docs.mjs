// Regenerates docs/protocol.md from the built CLI's `atomic schema` (built-in plugins only:
// an empty agent dir, so no user plugin of this machine leaks into the page).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { renderProtocolDocs } from "../dist/lib/protocol-docs/index.js";

const root = resolve(import.meta.dirname, "..");
const agentDir = mkdtempSync(join(tmpdir(), "atomic-docs-"));
try {
  const text = execFileSync(process.execPath, [join(root, "dist/cli/atomic.cjs"), "schema"], {
    env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(join(root, "docs/protocol.md"), renderProtocolDocs(JSON.parse(text)));
  process.stderr.write("docs/protocol.md written\n");
} finally {
  rmSync(agentDir, { recursive: true, force: true });
}
