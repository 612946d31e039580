/**
 * Atomic's `@earendil-works/pi-tui` (and `@mariozechner/pi-tui`) for extensions. A headless agent
 * draws nothing: renderers, custom components and editors are never called. What an extension
 * imports from pi-tui must still resolve, so a tool with a `renderResult` or a module-level
 * `class X extends Container` loads: the component classes exist and render plain text lines,
 * the text helpers measure and cut plain text (ANSI sequences are not counted), and key matching
 * never matches (there is no keyboard).
 */
import stripAnsi from "strip-ansi";

export interface Component {
  render(width: number): readonly string[];
  handleInput?(data: string): void;
  invalidate(): void;
  wantsKeyRelease?: boolean;
}

/** What pi hands a component factory; never built in Atomic (factories are not called). */
export interface TUI {
  requestRender(force?: boolean): void;
  [key: string]: unknown;
}

export type KeyId = string;
export type Keybinding = string;
export interface AutocompleteItem {
  value: string;
  label: string;
  description?: string;
}
export interface AutocompleteProvider {
  [key: string]: unknown;
}
export type EditorTheme = Record<string, unknown>;
export interface EditorComponent extends Component {
  getText(): string;
  setText(text: string): void;
  [key: string]: unknown;
}
export type OverlayOptions = Record<string, unknown>;
export interface OverlayHandle {
  hide(): void;
  setHidden(hidden: boolean): void;
  [key: string]: unknown;
}
export interface ProgramStatus {
  kind?: string;
  message?: string;
}
export interface SelectItem {
  value: string;
  label: string;
  description?: string;
}
export interface SettingItem {
  id: string;
  label: string;
  [key: string]: unknown;
}

export const CURSOR_MARKER = "\u001B_pi:c\u0007";

/** Segments by grapheme so a width counts what a terminal shows (ANSI sequences removed). */
const graphemes = (text: string): string[] => [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(stripAnsi(text))].map((part) => part.segment);

export function stripTerminalSequences(text: string): string {
  return stripAnsi(String(text));
}

export function visibleWidth(text: string): number {
  return graphemes(String(text)).length;
}

export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
  const parts = graphemes(String(text));
  let out = parts.length <= maxWidth ? parts.join("") : parts.slice(0, Math.max(0, maxWidth - graphemes(ellipsis).length)).join("") + ellipsis;
  if (pad) out += " ".repeat(Math.max(0, maxWidth - visibleWidth(out)));
  return out;
}

/** Word-wraps each line to `width` columns (a word longer than a line is cut). */
export function wrapTextWithAnsi(text: string, width: number): string[] {
  const limit = Math.max(1, Math.floor(width));
  const lines: string[] = [];
  for (const line of stripAnsi(String(text)).split("\n")) {
    let current = "";
    for (const word of line.split(" ")) {
      const candidate = current === "" ? word : `${current} ${word}`;
      if (visibleWidth(candidate) <= limit) current = candidate;
      else {
        if (current !== "") lines.push(current);
        let rest = graphemes(word);
        while (rest.length > limit) {
          lines.push(rest.slice(0, limit).join(""));
          rest = rest.slice(limit);
        }
        current = rest.join("");
      }
    }
    lines.push(current);
  }
  return lines;
}

export function renderFakeCursor(text: string): string {
  return text;
}

/** No keyboard in a headless agent: nothing ever matches. */
export function matchesKey(_data: string, _key: KeyId): boolean {
  return false;
}

export function isKeyRelease(_data: string): boolean {
  return false;
}

export function isKeyRepeat(_data: string): boolean {
  return false;
}

export function parseKey(_data: string): string | undefined {
  return undefined;
}

/** Key names as pi-tui spells them; modifiers build `ctrl+x`-style ids. */
export const Key = {
  escape: "escape",
  esc: "esc",
  enter: "enter",
  return: "return",
  tab: "tab",
  space: "space",
  backspace: "backspace",
  delete: "delete",
  home: "home",
  end: "end",
  pageUp: "pageUp",
  pageDown: "pageDown",
  up: "up",
  down: "down",
  left: "left",
  right: "right",
  ctrl: (key: string) => `ctrl+${key}`,
  shift: (key: string) => `shift+${key}`,
  alt: (key: string) => `alt+${key}`,
  ctrlShift: (key: string) => `ctrl+shift+${key}`,
  ctrlAlt: (key: string) => `ctrl+alt+${key}`,
};

/** Items whose text holds every character of `query` in order (case-insensitive), in their order. */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
  const wanted = String(query).toLowerCase();
  return items.filter((item) => {
    const text = getText(item).toLowerCase();
    let at = 0;
    for (const char of wanted) {
      at = text.indexOf(char, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  });
}

/** A component that draws nothing (interactive widgets: lists, inputs, editors, loaders). */
class Inert implements Component {
  // biome-ignore lint/complexity/noUselessConstructor: typed to accept pi-tui's constructor arguments
  constructor(..._args: unknown[]) {}
  render(_width: number): readonly string[] {
    return [];
  }
  handleInput(_data: string): void {}
  invalidate(): void {}
}

export class Container implements Component {
  children: Component[] = [];
  // biome-ignore lint/complexity/noUselessConstructor: typed to accept pi-tui's constructor arguments
  constructor(..._args: unknown[]) {}
  addChild(child: Component): void {
    this.children.push(child);
  }
  removeChild(child: Component): void {
    this.children = this.children.filter((item) => item !== child);
  }
  clear(): void {
    this.children = [];
  }
  render(width: number): readonly string[] {
    return this.children.flatMap((child) => [...child.render(width)]);
  }
  invalidate(): void {
    for (const child of this.children) child.invalidate();
  }
}

export class Box extends Container {}
export class HStack extends Container {}
export class VStack extends Container {}

export class Text implements Component {
  #text: string;
  constructor(text = "", ..._rest: unknown[]) {
    this.#text = String(text);
  }
  setText(text: string): void {
    this.#text = String(text);
  }
  render(width: number): readonly string[] {
    return this.#text === "" ? [] : wrapTextWithAnsi(this.#text, width);
  }
  invalidate(): void {}
}

export class TruncatedText extends Text {
  override render(width: number): readonly string[] {
    return super.render(Number.MAX_SAFE_INTEGER).map((line) => truncateToWidth(line, width));
  }
}

/** Markdown as its source text (no styling without a terminal). */
export class Markdown extends Text {}

export class Spacer implements Component {
  #lines: number;
  constructor(lines = 1) {
    this.#lines = Math.max(0, Math.floor(Number(lines) || 0));
  }
  render(): readonly string[] {
    return Array.from({ length: this.#lines }, () => "");
  }
  invalidate(): void {}
}

export class SelectList extends Inert {}
export class SettingsList extends Inert {}
export class Input extends Inert {}
export class Editor extends Inert {}
export class Loader extends Inert {}
export class CancellableLoader extends Inert {}
export class Image extends Inert {}
export class ScrollView extends Inert {}
