/**
 * The kernel's surface: what plugins and the host build on (hooks, commands, tools, events,
 * services, the plugin contract, settings and flags, errors).
 */
export * from "./errors.js";
export * from "./hooks.js";
export * from "./hook-access.js";
export * from "./commands.js";
export * from "./tools.js";
export * from "./events.js";
export * from "./services.js";
export * from "./shared.js";
export * from "./plugin.js";
export * from "./logger.js";
export * from "./config.js";
export * from "./settings.js";
export * from "./flags.js";
export * from "./validation.js";
export * from "./transport.js";
export { SLOW_NOTICE_MS, SlowNotices, watchSlow, type WatchOptions } from "./slow-work.js";
export { Kernel, createKernel, type KernelOptions } from "./kernel.js";
