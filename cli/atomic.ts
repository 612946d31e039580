#!/usr/bin/env node
/** `dist/cli/atomic.js`, the executable's path before it became `atomic.cjs`: runs the same CLI. */
import "./atomic.cjs";
