/**
 * The pi-rpc-client suite again, through `atomic serve` and `atomic --mode rpc --connect` (issue 34):
 * pi 1.6's own RpcClient, unchanged, against one agent of a server.
 */
import { throughServer } from "./helpers/via-server-mode.js";

await throughServer(() => import("./pi-rpc-client.e2e.test.js?through-server" as string));
