// The k6 scripts are written in TypeScript and run by k6, which does not check types. This checks
// them against @types/k6 (infra/k6/tsconfig.json), and these tests themselves, in `npm test`.
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './support';

/** The diagnostics of a tsconfig's program, formatted; `extra` adds in-memory files to it. */
function diagnostics(tsconfig: string, extra: Record<string, string> = {}): string[] {
  const file = join(ROOT, tsconfig);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) return [ts.flattenDiagnosticMessageText(read.error.messageText, '\n')];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, join(file, '..'), undefined, file);
  const host = ts.createCompilerHost(parsed.options);
  const extraPaths = new Map(Object.entries(extra).map(([name, text]) => [join(file, '..', name), text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) =>
    extraPaths.has(name)
      ? ts.createSourceFile(name, extraPaths.get(name)!, language)
      : getSourceFile(name, language, onError);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => extraPaths.has(name) || fileExists(name);
  const program = ts.createProgram({
    rootNames: [...parsed.fileNames, ...extraPaths.keys()],
    options: parsed.options,
    host,
  });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const at = d.file
      ? `${d.file.fileName.replace(`${ROOT}/`, '')}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: `
      : '';
    return `${at}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('type checks', () => {
  it('infra/k6 against @types/k6', () => {
    expect(diagnostics('infra/k6/tsconfig.json')).toEqual([]);
  });

  it('catches a misuse of the k6 API (the check is not vacuous)', () => {
    const misuse =
      "import { WebSocket } from 'k6/websockets';\nexport default function () { new WebSocket(8000).send({}); }\n";
    const found = diagnostics('infra/k6/tsconfig.json', { 'misuse.ts': misuse });
    expect(found).toEqual([
      expect.stringMatching(/^infra\/k6\/misuse.ts:2:/),
      expect.stringMatching(/^infra\/k6\/misuse.ts:2:/),
    ]);
  });

  it('infra/test', () => {
    expect(diagnostics('infra/test/tsconfig.json')).toEqual([]);
  });
});
