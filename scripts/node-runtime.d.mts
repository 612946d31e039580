// Types of the runtime installer, for tests that run code under another Node major.
export const NODE_RUNTIME_VERSIONS: Readonly<Record<20 | 22 | 24, string>>;
/** Path of the `node` binary of `major`, installed from the npm registry when missing; rejects with the reason. */
export function nodeRuntime(major: 20 | 22 | 24): Promise<string>;
