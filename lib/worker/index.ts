/**
 * Worker threads for work that must not block the event loop: starting one from a module of
 * this package (compiled or from sources), and running jobs under a progress watchdog.
 */
export { startModuleWorker } from "./start.js";
export { BEAT_SLOT, FIRST_USER_SLOT, READY_SLOT, WatchedWorker, WorkerProgress, WorkerStalledError, type WatchedWorkerOptions } from "./watched.js";
