// Types of the build stamp, for its tests.
export const BUILD_INPUTS: readonly string[];
/** A digest of the inputs' paths and bytes (and the build's environment). */
export function inputsDigest(root: string, inputs?: readonly string[], env?: NodeJS.ProcessEnv): string;
/** Records the build just made (node_modules/.cache/atomic-build/stamp.json). */
export function writeBuildStamp(root: string, env?: NodeJS.ProcessEnv): void;
/** Why dist/ needs a build, or undefined when it holds the build of the current inputs. */
export function staleBuildReason(root: string, env?: NodeJS.ProcessEnv): string | undefined;
