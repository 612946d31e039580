/** The kernel's public surface: what plugins and user code import. */
export * from "./types.js";
export * from "./errors.js";
export * from "./hooks.js";
export * from "./commands.js";
export * from "./tools.js";
export * from "./events.js";
export * from "./services.js";
export * from "./plugin.js";
export * from "./loader.js";
export * from "./logger.js";
export * from "./config.js";
export * from "./validation.js";
export { Kernel, createKernel, type KernelOptions } from "./kernel.js";
export * from "./stdio.js";
export * from "./thinking.js";
