/**
 * The event-options suite again, through `atomic serve` and `atomic --mode rpc --connect` (issue 34): an
 * old client must see exactly what `--mode rpc` writes (test/helpers/via-server.ts).
 */
import "./helpers/via-server-mode.js";
import "./event-options.e2e.test.js";
