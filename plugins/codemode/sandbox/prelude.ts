/**
 * The JavaScript a sandbox VM evaluates before the script: it keeps the one host bridge in a
 * closure (the script never sees it) and builds the script's world on it: `tools`, `ALL_TOOLS`,
 * `text()`, `image()`, `console.*`, `exit()`, `store()`/`load()` and the host globals. Values
 * cross as JSON text; the host parses them.
 *
 * It evaluates to `(bridge, toolsJson, globalsJson, storeJson, limitsJson) => { settle, run, stalled }`:
 * - `bridge(kind, ...)`: "call"/"global" (id, name, argsJson), "output" (kind, data, mimeType),
 *   "done" (ok, valueJson or errorJson, writesJson);
 * - `settle(id, ok, payload)`: a call's JSON result, or its error message;
 * - `run(fn)`: starts the script function;
 * - `stalled()`: fails a script that waits while no call is pending (nothing can ever wake it).
 */
import { FUNCTION_MARK } from "./protocol.js";

export const PRELUDE_FILE = "codemode-prelude.js";
/** The script's own file name in stack traces. */
export const SCRIPT_FILE = "codemode.js";

/**
 * The script as an async function body. The opening shares the script's first line, so line
 * numbers in stack traces are the script's own.
 */
export function wrapScript(code: string): string {
  return `(async (tools, console) => {${code}\n})`;
}

export const PRELUDE_SOURCE = String.raw`(function (bridge, toolsJson, globalsJson, storeJson, limitsJson) {
  "use strict";
  const limits = JSON.parse(limitsJson);
  const toJson = JSON.stringify;
  const fromJson = JSON.parse;
  const then = Promise.prototype.then;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const BaseRangeError = RangeError;
  const waiting = new Map();
  let lastId = 0;
  let finished = false;
  const EXITED = Object.freeze({ exited: true });

  function finish(ok, payload, writes) {
    if (finished) return;
    finished = true;
    bridge("done", ok, payload, writes);
  }

  // "Name: message" and the frames, without this prelude's own.
  function errorText(error) {
    const head = error.message ? error.name + ": " + error.message : String(error.name);
    const stack = typeof error.stack === "string" ? error.stack.split("\n") : [];
    const frames = stack.filter((line) => line.trim() !== "" && line.indexOf("${PRELUDE_FILE}") === -1);
    return [head].concat(frames).join("\n");
  }

  function shown(value) {
    if (typeof value === "string") return value;
    if (value instanceof BaseError) return errorText(value);
    if (typeof value === "number") return String(value);
    try {
      const json = toJson(value);
      return json === undefined ? String(value) : json;
    } catch {
      return String(value);
    }
  }

  function errorJson(error) {
    try {
      if (error instanceof BaseError) return toJson({ name: String(error.name), message: String(error.message), stack: errorText(error) });
      return toJson({ message: String(shown(error)) });
    } catch {
      return toJson({ message: "The script threw a value that cannot be described" });
    }
  }

  // Host globals see a function argument as a mark (see FUNCTION_MARK), never as nothing.
  const markFunctions = (key, value) => (typeof value === "function" ? { ${JSON.stringify(FUNCTION_MARK)}: true } : value);

  function requester(kind, name, spread) {
    return (...args) =>
      new Promise((resolve, reject) => {
        let json;
        try {
          const given = spread ? args : args[0];
          json = given === undefined ? undefined : kind === "global" ? toJson(given, markFunctions) : toJson(given);
        } catch (error) {
          reject(error);
          return;
        }
        const id = ++lastId;
        waiting.set(id, { resolve, reject });
        bridge(kind, id, name, json);
      });
  }

  // A missing member names the near ones instead of failing later with "not a function".
  const squash = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
  function strict(target, label, names, hint) {
    return new Proxy(target, {
      get(object, key, receiver) {
        if (typeof key !== "string" || key in object || key in Object.prototype || key === "then" || key === "toJSON") return Reflect.get(object, key, receiver);
        const wanted = squash(key);
        const same = names.filter((name) => squash(name) === wanted);
        const near = same.length > 0 ? same : names.filter((name) => wanted !== "" && (squash(name).includes(wanted) || wanted.includes(squash(name))));
        let message = label + "." + key + " does not exist.";
        if (near.length > 0) message += " Did you mean " + near.slice(0, 5).map((name) => label + "." + name).join(", ") + "?";
        else if (names.length <= 20) message += " Available: " + names.join(", ") + ".";
        if (hint) message += " " + hint;
        message += ' Check for a member with "' + key + '" in ' + label + ".";
        throw new BaseTypeError(message);
      },
    });
  }

  const toolTable = Object.create(null);
  const listing = [];
  for (const tool of fromJson(toolsJson)) {
    const call = requester("call", tool.name, false);
    if (!(tool.jsName in toolTable)) {
      toolTable[tool.jsName] = call;
      listing.push(Object.freeze({ name: tool.jsName, description: tool.description }));
    }
    if (!(tool.name in toolTable)) toolTable[tool.name] = call;
  }
  Object.freeze(toolTable);
  Object.freeze(listing);
  const tools = strict(toolTable, "tools", listing.map((tool) => tool.name), "ALL_TOOLS lists every tool; searchTools(query) finds tools by topic.");

  // "group.member" names become members of one frozen object global (\`models.classify\`).
  const groups = Object.create(null);
  for (const name of fromJson(globalsJson)) {
    const dot = name.indexOf(".");
    if (dot < 0) {
      Object.defineProperty(globalThis, name, { value: requester("global", name, true), enumerable: true });
      continue;
    }
    const group = name.slice(0, dot);
    if (!(group in groups)) groups[group] = Object.create(null);
    groups[group][name.slice(dot + 1)] = requester("global", name, true);
  }
  for (const group of Object.keys(groups)) {
    const members = Object.freeze(groups[group]);
    Object.defineProperty(globalThis, group, { value: strict(members, group, Object.keys(members)), enumerable: true });
  }

  const stored = new Map(Object.entries(fromJson(storeJson)));
  const written = new Map();
  let storedChars = 0;
  for (const [key, json] of stored) storedChars += key.length + json.length;
  const STORE_ADVICE = "store() is for small state such as IDs or summaries. Show images with image(), keep large data in variables, or write it to a file with a tool.";

  function store(key, value) {
    if (typeof key !== "string") throw new BaseTypeError("store() key must be a string");
    const before = stored.has(key) ? key.length + stored.get(key).length : 0;
    if (value === undefined) {
      stored.delete(key);
      storedChars -= before;
      written.set(key, undefined);
      return;
    }
    let json;
    try {
      json = toJson(value);
    } catch (error) {
      throw new BaseTypeError("store(" + toJson(key) + ") value is not JSON-serializable: " + shown(error));
    }
    if (json === undefined) throw new BaseTypeError("store(" + toJson(key) + ") value is not JSON-serializable");
    if (json.length > limits.storeValueChars) {
      throw new BaseRangeError("store(" + toJson(key) + ") value has " + json.length + " characters of JSON, more than the limit of " + limits.storeValueChars + ". " + STORE_ADVICE);
    }
    const after = storedChars - before + key.length + json.length;
    if (after > limits.storeTotalChars) {
      throw new BaseRangeError("store is full: stored values would exceed " + limits.storeTotalChars + " characters of JSON. Delete keys with store(key, undefined). " + STORE_ADVICE);
    }
    stored.set(key, json);
    storedChars = after;
    written.set(key, json);
  }

  function load(key) {
    if (typeof key !== "string") throw new BaseTypeError("load() key must be a string");
    const json = stored.get(key);
    return json === undefined ? undefined : fromJson(json);
  }

  const writesJson = () => toJson([...written].map(([key, json]) => (json === undefined ? [key] : [key, json])));

  let outputChars = 0;
  let outputItems = 0;
  // Past a limit the script fails for good: catching the error does not bring output back.
  function addOutput(kind, data, mimeType) {
    if (finished) return;
    outputChars += data.length;
    outputItems++;
    if (outputChars > limits.outputChars || outputItems > limits.outputItems) {
      const error = new BaseRangeError(
        "script output exceeded the limit of " + limits.outputChars + " characters or " + limits.outputItems + " text(), image(), and console calls. Print a summary instead, or write large data to a file with a tool.",
      );
      finish(false, errorJson(error));
      throw error;
    }
    bridge("output", kind, data, mimeType);
  }

  function text(value) {
    let rendered;
    try {
      if (value === undefined || value === null || (typeof value !== "object" && typeof value !== "function")) rendered = String(value);
      else {
        const json = toJson(value);
        rendered = json === undefined ? String(value) : json;
      }
    } catch (error) {
      throw new BaseTypeError(error instanceof BaseError ? error.message : String(error));
    }
    addOutput("text", rendered);
  }

  const IMAGE_EXPECTS = 'image expects a non-empty image URL string, an object with image_url, or an image block { type: "image", data, mimeType }';
  function imageUrl(value) {
    if (typeof value === "string") return value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new BaseTypeError(IMAGE_EXPECTS);
    if (value.image_url !== undefined) {
      if (typeof value.image_url !== "string") throw new BaseTypeError(IMAGE_EXPECTS);
      return value.image_url;
    }
    if (typeof value.type !== "string") throw new BaseTypeError(IMAGE_EXPECTS);
    if (value.type !== "image") throw new BaseTypeError('image only accepts image blocks, got "' + value.type + '"');
    if (typeof value.data !== "string" || value.data === "") throw new BaseTypeError("image expected image block data");
    return value.data.toLowerCase().startsWith("data:") ? value.data : "data:;base64," + value.data;
  }

  // The formats providers take inline, by the base64 of their first bytes.
  const SIGNATURES = [
    ["image/png", /^iVBORw0KGg/],
    ["image/jpeg", /^[/]9j[/](?!9)/],
    ["image/gif", /^R0lGOD[dl]h/],
    ["image/webp", /^UklG.{8}RUJQ/],
  ];
  function image(value) {
    const url = imageUrl(value);
    if (url === "") throw new BaseTypeError(IMAGE_EXPECTS);
    const colon = url.indexOf(":");
    const scheme = colon === -1 ? "" : url.slice(0, colon).toLowerCase();
    if (scheme === "http" || scheme === "https") throw new BaseTypeError("remote image URLs are not supported in tool outputs. Pass a base64 data URI instead");
    const comma = url.indexOf(",");
    const params = comma === -1 ? [] : url.slice(colon + 1, comma).split(";").slice(1);
    if (scheme !== "data" || comma === -1 || !params.some((part) => part.toLowerCase() === "base64")) throw new BaseTypeError("invalid image output. Pass a base64 data URI instead");
    const data = url.slice(comma + 1).replace(/\s+/g, "");
    if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) throw new BaseTypeError("invalid image output. The image data is not valid base64 (truncated or corrupted?)");
    const found = SIGNATURES.find((entry) => entry[1].test(data.slice(0, 16)));
    if (!found) throw new BaseTypeError("invalid image output. The image data is not a PNG, JPEG, GIF, or WebP image");
    addOutput("image", data, found[0]);
  }

  function exit() {
    let writes;
    try {
      writes = writesJson();
    } catch (error) {
      finish(false, errorJson(error));
      throw EXITED;
    }
    finish(true, undefined, writes);
    throw EXITED;
  }

  const consoleObject = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) consoleObject[level] = (...args) => addOutput("console", args.map(shown).join(" "));
  Object.freeze(consoleObject);

  const globals = { tools, ALL_TOOLS: listing, console: consoleObject, text, image, exit, store, load };
  for (const name of Object.keys(globals)) Object.defineProperty(globalThis, name, { value: globals[name], enumerable: true });

  return {
    settle(id, ok, payload) {
      const call = waiting.get(id);
      if (!call) return;
      waiting.delete(id);
      if (!ok) {
        call.reject(new BaseError(payload));
        return;
      }
      let value;
      try {
        value = payload === undefined ? undefined : fromJson(payload);
      } catch (error) {
        call.reject(error);
        return;
      }
      call.resolve(value);
    },
    run(fn) {
      let promise;
      try {
        promise = fn(tools, consoleObject);
      } catch (error) {
        finish(false, errorJson(error));
        return;
      }
      then.call(
        promise,
        (value) => {
          let json;
          try {
            json = value === undefined ? undefined : toJson(value);
          } catch (error) {
            finish(false, errorJson(error));
            return;
          }
          finish(true, json, writesJson());
        },
        (error) => {
          if (error === EXITED) return;
          finish(false, errorJson(error));
        },
      );
    },
    stalled() {
      if (finished || waiting.size > 0) return false;
      finish(false, toJson({ name: "Error", message: "The script is waiting on a promise that can never settle: no tool call is pending, and timers do not exist here." }));
      return true;
    },
  };
})`;
