/**
 * The client suite again, through `atomic serve` and `atomic --mode rpc --connect` (issue 34):
 * Atomic's own typed client (atomic-agent/client), unchanged, against one agent of a server.
 */
import { throughServer } from "./helpers/via-server-mode.js";

await throughServer(() => import("./client.e2e.test.js?through-server" as string));
