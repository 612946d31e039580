import { describe, expect, it } from "vitest";
import { FetchHeaders } from "./fetch-headers.js";
import { FormData as SdkFormData, Headers as SdkHeaders, ReadableStream as SdkReadableStream } from "./sdk-globals.js";

type Op = ["append" | "set", string, string] | ["delete", string];
/** The standard class, typed by the interface both share (the global's type is empty where DOM types are declared). */
type AnyHeaders = FetchHeaders;
const standardHeaders = (init?: unknown) => new Headers(init as never) as unknown as AnyHeaders;

/** Everything observable about a Headers object. */
function observe(headers: AnyHeaders, names: string[]) {
  return {
    entries: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    each: (() => {
      const seen: string[][] = [];
      headers.forEach((value, name) => seen.push([name, value]));
      return seen;
    })(),
    got: names.map((name) => [headers.get(name), headers.has(name)]),
    cookies: headers.getSetCookie(),
  };
}

function apply(headers: AnyHeaders, ops: Op[]): void {
  for (const op of ops) {
    if (op[0] === "delete") headers.delete(op[1]);
    else headers[op[0]](op[1], op[2]);
  }
}

describe("FetchHeaders behaves as the standard Headers", () => {
  const cases: { name: string; init?: HeadersInit; ops: Op[] }[] = [
    {
      name: "case-insensitive names, lowercase and sorted when iterated",
      ops: [
        ["set", "X-B", "2"],
        ["append", "x-a", "1"],
        ["set", "Content-Type", "application/json"],
      ],
    },
    {
      name: "repeated values joined with a comma",
      ops: [
        ["append", "Accept", "a"],
        ["append", "ACCEPT", "b"],
        ["append", "accept", "c"],
      ],
    },
    {
      name: "set replaces, delete removes",
      ops: [
        ["append", "a", "1"],
        ["append", "a", "2"],
        ["set", "A", "3"],
        ["append", "b", "x"],
        ["delete", "B"],
      ],
    },
    {
      name: "values trimmed of HTTP whitespace",
      ops: [
        ["set", "a", " \t padded \t "],
        ["append", "b", "\n x y \r"],
      ],
    },
    {
      name: "set-cookie values kept apart",
      ops: [
        ["append", "Set-Cookie", "a=1"],
        ["append", "set-cookie", "b=2"],
        ["append", "z", "last"],
        ["append", "cookie", "c=3"],
      ],
    },
    {
      name: "set-cookie set and deleted",
      ops: [
        ["append", "set-cookie", "a=1"],
        ["set", "set-cookie", "b=2"],
        ["append", "x", "1"],
      ],
    },
    {
      name: "empty values",
      ops: [
        ["set", "a", ""],
        ["append", "a", ""],
      ],
    },
    { name: "from a record", init: { "X-One": "1", "x-two": " 2 ", "Set-Cookie": "s=1" }, ops: [["append", "x-one", "again"]] },
    {
      name: "from pairs",
      init: [
        ["a", "1"],
        ["A", "2"],
        ["set-cookie", "x"],
        ["set-cookie", "y"],
      ],
      ops: [],
    },
  ];

  it.each(cases)("$name", ({ init, ops }) => {
    const names = ["a", "A", "b", "x-a", "X-B", "content-type", "accept", "set-cookie", "cookie", "z", "x-one", "X-TWO", "missing"];
    const standard = standardHeaders(init);
    const ours = new FetchHeaders(init as never);
    apply(standard, ops);
    apply(ours, ops);
    expect(observe(ours, names)).toEqual(observe(standard, names));
    // Built from another Headers (either class), the copies are the same.
    expect(observe(new FetchHeaders(standard), names)).toEqual(observe(standardHeaders(standard), names));
    expect(observe(standardHeaders(ours), names)).toEqual(observe(standardHeaders(standard), names));
  });

  it("refuses invalid names and values with a TypeError, as the standard class does", () => {
    for (const [name, value] of [
      ["bad name", "v"],
      ["", "v"],
      ["a:b", "v"],
      ["ok", "line\nbreak"],
      ["ok", "nul\0"],
      ["ok", "cr\rx"],
    ] as const) {
      expect(() => standardHeaders().append(name, value)).toThrow(TypeError);
      expect(() => new FetchHeaders().append(name, value)).toThrow(TypeError);
      expect(() => new FetchHeaders().set(name, value)).toThrow(TypeError);
    }
    expect(() => new FetchHeaders().get("bad name")).toThrow(TypeError);
    expect(() => new FetchHeaders([["only-one"]] as never)).toThrow(TypeError);
    expect(() => new FetchHeaders("a: b" as never)).toThrow(TypeError);
  });

  it("iterators see the headers as they were when created; instanceof and the string tag", () => {
    const headers = new FetchHeaders({ a: "1" });
    const entries = headers.entries();
    headers.set("b", "2");
    expect([...entries]).toEqual([["a", "1"]]);
    expect(Object.prototype.toString.call(headers)).toBe("[object Headers]");
    expect(new SdkHeaders() instanceof FetchHeaders).toBe(true);
  });
});

describe("the FormData the bundled SDKs see", () => {
  it("is not an ordinary body, is the real class for real form data, and constructs the real class", () => {
    for (const body of [{ a: 1 }, "text", new Uint8Array(2), null, undefined, new URLSearchParams("a=1"), { [Symbol.toStringTag]: "FormData" }]) {
      expect(body instanceof SdkFormData).toBe(false);
    }
    const form = new SdkFormData() as unknown as { append(name: string, value: string): void };
    expect(form).toBeInstanceOf(globalThis.FormData);
    form.append("a", "1");
    expect(form instanceof SdkFormData).toBe(true);
    expect(new globalThis.FormData() instanceof SdkFormData).toBe(true);
  });
});

describe("the ReadableStream the bundled SDKs see", () => {
  it("is not a JSON or byte body, is the real class for a real stream, and constructs the real class", () => {
    for (const body of ["{}", new Uint8Array(2), { a: 1 }, null, undefined, { getReader: 1 }, { getReader() {} }]) {
      expect(body instanceof SdkReadableStream).toBe(false);
    }
    const made = new SdkReadableStream({ start: (controller) => controller.close() });
    expect(made).toBeInstanceOf(globalThis.ReadableStream);
    expect(made instanceof SdkReadableStream).toBe(true);
    expect(new globalThis.ReadableStream() instanceof SdkReadableStream).toBe(true);
  });
});
