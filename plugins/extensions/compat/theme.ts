/**
 * pi's `Theme` as pi 1.6 has it without a terminal to ask (RPC mode, no reported colours): its
 * "system" theme at the palette tier, so `theme.fg("accent", x)` is the same bytes as in pi
 * (`ESC[38;5;5m x ESC[39m`). Accents are the terminal's own ANSI colours, body text is the
 * default foreground, secondary text is faint (SGR 2), panels have no background. Attributes
 * (bold, italic, ...) are added only when colour is on for stdout, as chalk decides in pi: never
 * over the protocol's pipe unless FORCE_COLOR says so.
 */

/** A colour: an ANSI palette index, "" (the terminal's default) or `#rrggbb`. */
export type ThemeColorValue = string | number;
export type TerminalColorMode = "truecolor" | "256color";
export type ThinkingLevelName = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

const ACCENTS = { violet: 5, blue: 4, cyan: 6, green: 2, red: 1, yellow: 3, magenta: 13 } as const;

/** Foreground tokens at the palette tier: a palette index, or "" for the default colour (faint when listed in FAINT). */
const FOREGROUND = {
  accent: ACCENTS.violet,
  borderAccent: ACCENTS.violet,
  customMessageLabel: ACCENTS.violet,
  mdCode: ACCENTS.violet,
  mdListBullet: ACCENTS.violet,
  syntaxType: ACCENTS.violet,
  syntaxNumber: ACCENTS.violet,
  thinkingHigh: ACCENTS.violet,
  border: ACCENTS.blue,
  mdLink: ACCENTS.blue,
  syntaxKeyword: ACCENTS.blue,
  thinkingMinimal: ACCENTS.blue,
  thinkingLow: ACCENTS.blue,
  syntaxVariable: ACCENTS.cyan,
  thinkingMedium: ACCENTS.cyan,
  success: ACCENTS.green,
  mdCodeBlock: ACCENTS.green,
  toolDiffAdded: ACCENTS.green,
  bashMode: ACCENTS.green,
  syntaxString: ACCENTS.green,
  error: ACCENTS.red,
  toolDiffRemoved: ACCENTS.red,
  thinkingMax: ACCENTS.red,
  warning: ACCENTS.yellow,
  mdHeading: ACCENTS.yellow,
  syntaxFunction: ACCENTS.yellow,
  thinkingXhigh: ACCENTS.magenta,
  text: "",
  userMessageText: "",
  toolTitle: "",
  customMessageText: "",
  syntaxOperator: "",
  syntaxPunctuation: "",
  muted: "",
  dim: "",
  thinkingText: "",
  toolOutput: "",
  mdLinkUrl: "",
  mdQuote: "",
  mdQuoteBorder: "",
  mdHr: "",
  mdCodeBlockBorder: "",
  toolDiffContext: "",
  syntaxComment: "",
  scrollbarTrack: "",
  scrollbarThumb: "",
  searchMatchText: "",
  borderMuted: "",
  thinkingOff: "",
} satisfies Record<string, ThemeColorValue>;
const BACKGROUND = {
  selectedBg: "",
  searchMatchBg: "",
  userMessageBg: "",
  customMessageBg: "",
  toolPendingBg: "",
  toolSuccessBg: "",
  toolErrorBg: "",
} satisfies Record<string, ThemeColorValue>;
/** Neutral tokens below body text: faint rather than bright black, which some palettes hide. */
const FAINT = Object.keys(FOREGROUND).filter((token) => FOREGROUND[token as ThemeColor] === "" && !["text", "userMessageText", "toolTitle"].includes(token));

export type ThemeColor = keyof typeof FOREGROUND;
export type ThemeBg = keyof typeof BACKGROUND;
export type ThemeToken = ThemeColor | ThemeBg;
export interface ThemeStyle {
  fg?: ThemeColor;
  bg?: ThemeBg;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strikethrough?: boolean;
}

const THINKING: Record<ThinkingLevelName, ThemeColor> = {
  off: "thinkingOff",
  minimal: "thinkingMinimal",
  low: "thinkingLow",
  medium: "thinkingMedium",
  high: "thinkingHigh",
  xhigh: "thinkingXhigh",
  max: "thinkingMax",
};
const ATTRIBUTES = { bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], strikethrough: [9, 29] } as const;

/** Whether styling attributes are written (chalk's decision in pi: stdout a terminal, or FORCE_COLOR). */
function attributesOn(): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return process.stdout.isTTY === true && process.env.TERM !== "dumb";
}

function ansi(value: ThemeColorValue, layer: "fg" | "bg", mode: TerminalColorMode): string {
  const base = layer === "fg" ? 38 : 48;
  if (value === "" || value === undefined) return `\x1b[${base + 1}m`;
  if (typeof value === "number") return `\x1b[${base};5;${value}m`;
  const hex = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (!hex) throw new Error(`Invalid theme colour: ${value} (expected a palette index, "" or #rrggbb)`);
  const [r, g, b] = hex.slice(1).map((part) => Number.parseInt(part, 16)) as [number, number, number];
  if (mode === "truecolor") return `\x1b[${base};2;${r};${g};${b}m`;
  const cube = (channel: number) => (channel < 48 ? 0 : channel < 115 ? 1 : Math.min(5, Math.floor((channel - 35) / 40)));
  return `\x1b[${base};5;${16 + 36 * cube(r) + 6 * cube(g) + cube(b)}m`;
}

export class Theme {
  readonly name: string;
  readonly sourcePath?: string;
  private readonly _mode: TerminalColorMode;
  private readonly _fg = new Map<string, string>();
  private readonly _bg = new Map<string, string>();
  private readonly _faint: Set<string>;

  /** `fgColors`/`bgColors`: every token's colour (palette index, "" for the default, or #rrggbb). */
  constructor(
    fgColors: Partial<Record<ThemeColor, ThemeColorValue>> = FOREGROUND,
    bgColors: Partial<Record<ThemeBg, ThemeColorValue>> = BACKGROUND,
    mode: TerminalColorMode = "256color",
    options: { name?: string; sourcePath?: string; dim?: readonly ThemeColor[] } = {},
  ) {
    this._mode = mode;
    this.name = options.name ?? "system";
    if (options.sourcePath !== undefined) this.sourcePath = options.sourcePath;
    for (const [token, value] of Object.entries({ ...FOREGROUND, ...fgColors })) this._fg.set(token, ansi(value, "fg", mode));
    for (const [token, value] of Object.entries({ ...BACKGROUND, ...bgColors })) this._bg.set(token, ansi(value, "bg", mode));
    this._faint = new Set(options.dim ?? (fgColors === FOREGROUND ? FAINT : []));
  }

  get appearance(): "dark" | "light" {
    return "dark";
  }

  fg(color: ThemeColor, text: string): string {
    const open = this._token(this._fg, color);
    return this._faint.has(color) ? `${open}\x1b[2m${text}\x1b[22;39m` : `${open}${text}\x1b[39m`;
  }

  bg(color: ThemeBg, text: string): string {
    return `${this._token(this._bg, color)}${text}\x1b[49m`;
  }

  style(text: string, options: ThemeStyle): string {
    let open = "";
    let close = "";
    if (options.fg !== undefined) {
      open += this._token(this._fg, options.fg);
      close = `\x1b[39m${close}`;
    }
    if (options.bg !== undefined) {
      open += this._token(this._bg, options.bg);
      close = `\x1b[49m${close}`;
    }
    const dim = options.dim === true || (options.fg !== undefined && this._faint.has(options.fg));
    for (const [name, [on, off]] of Object.entries(ATTRIBUTES)) {
      if (!(name === "dim" ? dim : options[name as keyof ThemeStyle] === true)) continue;
      open += `\x1b[${on}m`;
      close = `\x1b[${off}m${close}`;
    }
    return `${open}${text}${close}`;
  }

  bold(text: string): string {
    return this._attribute("bold", text);
  }
  italic(text: string): string {
    return this._attribute("italic", text);
  }
  underline(text: string): string {
    return this._attribute("underline", text);
  }
  inverse(text: string): string {
    return this._attribute("inverse", text);
  }
  strikethrough(text: string): string {
    return this._attribute("strikethrough", text);
  }
  /** Atomic's addition (pi 0.x had it): faint text, when attributes are on. */
  dim(text: string): string {
    return this._attribute("dim", text);
  }

  getFgAnsi(color: ThemeColor): string {
    const open = this._token(this._fg, color);
    return this._faint.has(color) ? `${open}\x1b[2m` : open;
  }

  getBgAnsi(color: ThemeBg): string {
    return this._token(this._bg, color);
  }

  getColorMode(): TerminalColorMode {
    return this._mode;
  }

  getThinkingBorderColor(level: ThinkingLevelName): (text: string) => string {
    const token = THINKING[level] ?? "thinkingOff";
    return (text) => this.fg(token, text);
  }

  getBashModeBorderColor(): (text: string) => string {
    return (text) => this.fg("bashMode", text);
  }

  private _attribute(name: keyof typeof ATTRIBUTES, text: string): string {
    if (!attributesOn()) return String(text);
    const [on, off] = ATTRIBUTES[name];
    return `\x1b[${on}m${text}\x1b[${off}m`;
  }

  private _token(map: Map<string, string>, token: string): string {
    const value = map.get(token);
    if (value === undefined) throw new Error(`Unknown theme color: ${token}`);
    return value;
  }
}

/** The theme of this process (pi's global `theme`): the system theme. */
let current = new Theme();

export function currentTheme(): Theme {
  return current;
}

/**
 * Selects the theme pi's helpers use. Only pi's `system` theme exists without a terminal (the
 * named themes are truecolour designs for a terminal that reports its colours): any name keeps
 * it, as pi falls back to its default for a theme it cannot load.
 */
export function initTheme(_themeName?: string, _enableWatcher?: boolean): void {
  current = new Theme();
}
