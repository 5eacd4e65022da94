// A crowd of clients opening one research's live view at once (bench/join.ts runs this in a process of
// its own, so the crowd's work does not land in the measuring process). Argument: JSON
// { apiUrl, researchId, codes, kind, out }; writes the OpenedView[] as JSON to `out`, then prints "DONE".
import { writeFileSync } from 'node:fs';
import { type ClientKind, openLiveView } from './lib/live-client';

const { apiUrl, researchId, codes, kind, out } = JSON.parse(process.argv[2]!) as {
  apiUrl: string;
  researchId: string;
  codes: string[];
  kind: ClientKind;
  out: string;
};

Promise.all(codes.map((code) => openLiveView(apiUrl, researchId, code, kind))).then(
  (views) => {
    writeFileSync(out, JSON.stringify(views));
    process.stdout.write('DONE\n', () => process.exit(0));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
