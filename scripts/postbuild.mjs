// After tsc: bundle the CLI (startup cost is per module loaded) and make the bin executable.
import { chmodSync } from "node:fs";
import { execFileSync } from "node:child_process";

execFileSync(process.execPath, ["scripts/bundle.mjs"], { stdio: "inherit" });
chmodSync("dist/cli/atomic.cjs", 0o755);
chmodSync("dist/cli/atomic.js", 0o755);
