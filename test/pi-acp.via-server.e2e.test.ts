/**
 * The pi-acp suite again, through `atomic serve` and `atomic --mode rpc --connect` (issue 34):
 * pi-acp (each pi it starts a bridge), unchanged, against one agent of a server.
 */
import { throughServer } from "./helpers/via-server-mode.js";

await throughServer(() => import("./pi-acp.e2e.test.js?through-server" as string));
