import { Elapsed, type ExportCell, warsawWallClock } from './export-format';
import { SheetXml, workbookParts, xmlText } from './xlsx-sheet';

/** The <sheetData> of a sheet of these rows (no frozen header, no widths). */
function sheetData(rows: readonly (readonly ExportCell[])[], bold = false): string {
  const sheet = new SheetXml({ widths: [], frozenHeader: false });
  for (const cells of rows) sheet.row(cells, bold);
  const xml = sheet.end().toString('utf8');
  return xml.slice(xml.indexOf('<sheetData>') + '<sheetData>'.length, xml.indexOf('</sheetData>'));
}

/** The text of each <v> of a one-row sheet. */
function values(cells: readonly number[]): string[] {
  return [...sheetData([cells]).matchAll(/<v>([^<]*)<\/v>/g)].map((m) => m[1]!);
}

describe('SpreadsheetML of the history workbook', () => {
  it('writes numbers as JavaScript writes them, whatever the path', () => {
    const edge = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      0.05,
      10,
      100,
      1234.5,
      -834.1,
      21.4,
      0.1 + 0.2,
      1 / 3,
      1e-7,
      -3.5e-5,
      0.0001,
      0.00001,
      5e-324,
    ];
    const large = [
      1e15,
      1e15 - 1,
      999_999_999_999_999.9,
      123_456_789_012_345.6,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      1e20,
      1e21,
      1.7976931348623157e308,
    ];
    const values_: number[] = [...edge, ...large];
    // What the exports hold (readings with one decimal, rounded to 3 or 4) and arbitrary doubles.
    let seed = 834;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 20_000; i++) {
      const decimals = i % 7;
      const scale = 10 ** decimals;
      const magnitude = 10 ** ((i % 9) - 2);
      values_.push(
        Math.round((random() - 0.3) * 2_000 * magnitude * scale) / scale,
        (random() - 0.5) * magnitude * 1_000,
      );
    }
    expect(values(values_)).toEqual(values_.map((v) => String(v)));
  });

  it('leaves out empty cells and says where the next one is; a cell next to the previous one needs no address', () => {
    expect(sheetData([[1, null, '', 2, 3, Number.NaN, Number.POSITIVE_INFINITY, 4]])).toBe(
      '<row r="1"><c r="A1"><v>1</v></c><c r="D1"><v>2</v></c><c><v>3</v></c><c r="H1"><v>4</v></c></row>',
    );
    // An empty row keeps its number; the columns past Z.
    const cells: ExportCell[] = Array.from({ length: 28 }, () => null);
    cells[26] = 7;
    expect(sheetData([[null, 'a'], [], cells])).toBe(
      '<row r="1"><c r="B1" t="inlineStr"><is><t>a</t></is></c></row><row r="3"><c r="AA3"><v>7</v></c></row>',
    );
  });

  it('writes text as inline strings, &, <, >, quotes escaped, the characters XML cannot hold dropped, spaces kept', () => {
    expect(
      sheetData([
        ['Ściana "A" & <B>', "it's", 'a\u0000b\u0008c\u000Bd\u001Fe\u007Ff\uFFFEg', 'tab\there\nnext line', ' wokół '],
      ]),
    ).toBe(
      '<row r="1">' +
        '<c r="A1" t="inlineStr"><is><t>Ściana &quot;A&quot; &amp; &lt;B&gt;</t></is></c>' +
        '<c t="inlineStr"><is><t>it&apos;s</t></is></c>' +
        '<c t="inlineStr"><is><t>abcdefg</t></is></c>' +
        '<c t="inlineStr"><is><t>tab\there\nnext line</t></is></c>' +
        '<c t="inlineStr"><is><t xml:space="preserve"> wokół </t></is></c>' +
        '</row>',
    );
    expect(xmlText('=1+1')).toBe('=1+1');
    expect(xmlText('<b>&')).toBe('&lt;b&gt;&amp;');
    expect(Buffer.from(sheetData([['zażółć']]), 'utf8').includes(Buffer.from('zażółć', 'utf8'))).toBe(true);
  });

  it('writes dates as Excel serial days of the Warsaw wall clock, exactly what exceljs wrote and reads back', () => {
    // 2030-03-31 01:05:40 UTC is 03:05:40 in Warsaw (CEST from 01:00 UTC that night).
    const wallClock = warsawWallClock(new Date(Date.UTC(2030, 2, 31, 1, 5, 40)));
    const xml = sheetData([[wallClock]]);
    const serial = Number(/<c r="A1" s="1"><v>([^<]+)<\/v><\/c>/.exec(xml)![1]);
    expect(serial).toBe(25_569 + Date.UTC(2030, 2, 31, 3, 5, 40) / 86_400_000); // exceljs's dateToExcel
    expect(Math.floor(serial)).toBe((Date.UTC(2030, 2, 31) - Date.UTC(1899, 11, 30)) / 86_400_000);
    expect(Math.round((serial - 25_569) * 86_400_000)).toBe(Date.UTC(2030, 2, 31, 3, 5, 40)); // exceljs's excelToDate
  });

  it('writes a time since ignition as a duration of whole seconds, and as text before ignition', () => {
    expect(
      sheetData([[new Elapsed(400), new Elapsed(12.9), new Elapsed(0), new Elapsed(-30), new Elapsed(-0.4)]]),
    ).toBe(
      '<row r="1">' +
        `<c r="A1" s="2"><v>${String(400 / 86_400)}</v></c>` +
        `<c s="2"><v>${String(12 / 86_400)}</v></c>` +
        '<c s="2"><v>0</v></c>' +
        '<c t="inlineStr"><is><t>-00:00:30</t></is></c>' +
        '<c t="inlineStr"><is><t>-00:00:00</t></is></c>' +
        '</row>',
    );
  });

  it('makes a header row bold, whatever its cells hold', () => {
    expect(sheetData([['Czas [s]', 1.5, new Date(0), new Elapsed(60)]], true)).toBe(
      '<row r="1" s="3" customFormat="1">' +
        '<c r="A1" s="3" t="inlineStr"><is><t>Czas [s]</t></is></c><c s="3"><v>1.5</v></c><c s="4"><v>25569</v></c>' +
        `<c s="5"><v>${String(60 / 86_400)}</v></c></row>`,
    );
  });

  it('starts a sheet with its frozen header row and column widths, and hands its bytes over as they are written', () => {
    const sheet = new SheetXml({ widths: [10, 20.5], frozenHeader: true });
    const head = sheet.take().toString('utf8');
    expect(head).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(head).toContain(
      '<cols><col min="1" max="1" width="10" customWidth="1"/><col min="2" max="2" width="20.5" customWidth="1"/></cols><sheetData>',
    );
    expect(sheet.pending).toBe(0);
    // More than the buffer's first size: it grows, and what was taken is not overwritten.
    const taken: Buffer[] = [];
    for (let r = 0; r < 2_000; r++) {
      sheet.row(Array.from({ length: 50 }, (_, i) => r + i / 10));
      if (r % 700 === 0) taken.push(sheet.take());
    }
    taken.push(sheet.end());
    const xml = head + Buffer.concat(taken).toString('utf8');
    expect(xml.match(/<row /g)).toHaveLength(2_000);
    expect(xml).toContain('<row r="2000"><c r="A2000"><v>1999</v></c><c><v>1999.1</v></c>');
    expect(
      xml.endsWith(
        '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
      ),
    ).toBe(true);
  });

  it('defines the styles the cells name, and each sheet in the workbook, its relationships and content types', () => {
    const parts = new Map(
      workbookParts(['Odczyty', 'Kryteria & "obserwacje"'], 'Furnace Live', new Date(Date.UTC(2030, 0, 1, 12))).map(
        (p) => [p.name, p.xml],
      ),
    );
    const styles = parts.get('xl/styles.xml')!;
    expect(styles).toContain(
      '<numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="165" formatCode="[hh]:mm:ss"/>',
    );
    const xfs = [...styles.slice(styles.indexOf('<cellXfs')).matchAll(/<xf numFmtId="(\d+)" fontId="(\d+)"/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(xfs).toEqual(['0/0', '164/0', '165/0', '0/1', '164/1', '165/1']);
    expect(styles).toMatch(/<fonts count="2"><font><sz val="11"\/>.*<\/font><font><b\/>/);
    expect(parts.get('xl/workbook.xml')).toContain(
      '<sheet name="Odczyty" sheetId="1" r:id="rId2"/><sheet name="Kryteria &amp; &quot;obserwacje&quot;" sheetId="2" r:id="rId3"/>',
    );
    expect(parts.get('xl/_rels/workbook.xml.rels')).toContain(
      'Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"',
    );
    expect(parts.get('[Content_Types].xml')).toContain('<Override PartName="/xl/worksheets/sheet2.xml"');
    expect(parts.get('docProps/core.xml')).toContain(
      '<dc:creator>Furnace Live</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2030-01-01T12:00:00Z</dcterms:created>',
    );
  });
});
