/**
 * pi's image helpers for extensions. The formats pi sends to models are recognised by their magic
 * bytes and measured from their headers. Atomic ships no image codec, so `resizeImage` and
 * `convertToPng` answer as pi does when its codec cannot load: an image that already fits is
 * returned as it is, one that would need re-encoding gives null.
 */
import { open } from "node:fs/promises";

export interface ImageResizeOptions {
  maxWidth?: number;
  maxHeight?: number;
  maxBytes?: number;
  jpegQuality?: number;
}

export interface ResizedImage {
  data: string;
  mimeType: string;
  originalWidth: number;
  originalHeight: number;
  width: number;
  height: number;
  wasResized: boolean;
}

/** pi's defaults: 2000x2000, 4.5 MB of encoded bytes. */
const DEFAULTS = { maxWidth: 2000, maxHeight: 2000, maxBytes: 4.5 * 1024 * 1024 };

export function detectSupportedImageMimeType(bytes: Uint8Array): string | null {
  const starts = (signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

export async function detectSupportedImageMimeTypeFromFile(filePath: string): Promise<string | null> {
  const file = await open(filePath, "r");
  try {
    const head = new Uint8Array(16);
    const { bytesRead } = await file.read(head, 0, 16, 0);
    return detectSupportedImageMimeType(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** Width and height from the image's header, or undefined for a format or file it cannot read. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const mime = detectSupportedImageMimeType(bytes);
  if (mime === "image/png" && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (mime === "image/gif" && bytes.length >= 10) return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  if (mime === "image/webp" && bytes.length >= 31) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === "VP8X") return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
    if (chunk === "VP8L") {
      const bits = view.getUint32(21, true);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (mime === "image/jpeg") {
    // The first start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC) holds the size.
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
      at += 2 + view.getUint16(at + 2);
    }
  }
  return undefined;
}

export async function resizeImage(inputBytes: Uint8Array, mimeType: string, options: ImageResizeOptions = {}): Promise<ResizedImage | null> {
  const limits = { ...DEFAULTS, ...options };
  const size = imageDimensions(inputBytes);
  if (!size || size.width > limits.maxWidth || size.height > limits.maxHeight || inputBytes.length > limits.maxBytes) return null;
  const data = Buffer.from(inputBytes.buffer, inputBytes.byteOffset, inputBytes.byteLength).toString("base64");
  return { data, mimeType, originalWidth: size.width, originalHeight: size.height, width: size.width, height: size.height, wasResized: false };
}

/** Tells the model how a resized image's coordinates map to the original's; nothing for an image left as it was. */
export function formatDimensionNote(result: ResizedImage): string | undefined {
  if (!result.wasResized) return undefined;
  const scale = (result.originalWidth / result.width).toFixed(2);
  return `[Image: original ${result.originalWidth}x${result.originalHeight}, displayed at ${result.width}x${result.height}. Multiply coordinates by ${scale} to map to original image.]`;
}

export async function convertToPng(base64Data: string, mimeType: string): Promise<{ data: string; mimeType: string } | null> {
  return mimeType === "image/png" ? { data: base64Data, mimeType } : null;
}
