/**
 * The bash-command suite again, through `atomic serve` and `atomic --mode rpc --connect` (issue 34): an
 * old client must see exactly what `--mode rpc` writes (test/helpers/via-server.ts).
 */
import { throughServer } from "./helpers/via-server-mode.js";

await throughServer(() => import("./bash-command.e2e.test.js?through-server" as string));
