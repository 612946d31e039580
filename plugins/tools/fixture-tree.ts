/** A small repository-like tree for the grep/find/ls tests (gitignored, hidden, binary, vendored files). */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export const FIXTURE_FILES: Record<string, string | Buffer> = {
  ".gitignore": "dist/\n*.log\n",
  "src/a.ts": "const foo = 1;\nconst bar = 2;\nexport { foo };\n",
  "src/b.js": "Foo here\n",
  "src/nested/.gitignore": "secret.ts\n!keep.log\n",
  "src/nested/secret.ts": "foo secret\n",
  "src/nested/keep.log": "foo log\n",
  "other/secret.ts": "foo other secret\n",
  "dist/out.js": "foo dist\n",
  "app.log": "foo log root\n",
  "node_modules/pkg/index.js": "foo nm\n",
  ".git/config": "foo git\n",
  ".hidden/h.ts": "foo hidden\n",
  "bin.dat": Buffer.from("foo\0bar"),
};

export async function writeTree(root: string, files: Record<string, string | Buffer> = FIXTURE_FILES): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}
