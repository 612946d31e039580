/** Imported first by a `*.via-server.e2e.test.ts` file: the RPC clients of the suite it imports next go through a server. */
process.env.ATOMIC_TEST_VIA = "server";
