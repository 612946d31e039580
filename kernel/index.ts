/**
 * The kernel's public surface (`atomic-agent`): what plugin authors import to define plugins,
 * commands and tools, the hook and event types they tap and emit, and the host entry points.
 */
export * from "./types.js";
export * from "./assistant-stream.js";
export * from "./session-types.js";
export * from "./thinking.js";
export * from "./errors.js";
export * from "./hooks.js";
export * from "./hook-policy.js";
export * from "./hook-access.js";
export * from "./commands.js";
export * from "./tools.js";
export * from "./events.js";
export * from "./services.js";
export * from "./plugin.js";
export * from "./loader.js";
export * from "./logger.js";
export * from "./config.js";
export * from "./settings.js";
export * from "./flags.js";
export * from "./validation.js";
export * from "./transport.js";
export * from "./scheduler.js";
export { Kernel, createKernel, type KernelOptions } from "./kernel.js";
export { createHost, prepareHost, type HostOptions, type PreparedHost } from "./host.js";
export { HostRuntime } from "./host-runtime.js";
export * from "./stdio.js";
export * from "./schemas-messages.js";
export * from "./schemas-session.js";
export * from "./schemas-events.js";
export * from "./protocol-schema.js";
