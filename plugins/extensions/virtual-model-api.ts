/** The API of a virtual model's catalog entry (pi 1.6's `isVirtualModel`): its own module, read by the SDK session too. */
export const VIRTUAL_MODEL_API = "pi-virtual";
