import { describe, expect, it } from 'vitest';
import { buildCsv, csvBlob, csvCell, type CsvColumn } from './csv';

/** jsdom's Blob has no arrayBuffer(); its FileReader reads one. */
function readBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The blob could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

describe('csvCell', () => {
  it('should write plain text and numbers as they are', () => {
    expect(csvCell('alice')).toBe('alice');
    expect(csvCell(125)).toBe('125');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('should quote a cell with a comma, a quote or a line break and double its quotes', () => {
    expect(csvCell('portrait, studio light')).toBe('"portrait, studio light"');
    expect(csvCell('say "cheese"')).toBe('"say ""cheese"""');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('carriage\r\nreturn')).toBe('"carriage\r\nreturn"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3+cmd|/C calc', "'-2+3+cmd|/C calc"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
  ])('should keep a spreadsheet from running %j as a formula', (text, expected) => {
    expect(csvCell(text)).toBe(expected);
  });

  it('should leave text with a formula sign further in alone', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('user@example.com')).toBe('user@example.com');
  });

  it('should write an infinite or NaN number as an empty cell', () => {
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('buildCsv', () => {
  interface Row {
    id: number;
    prompt: string;
    reason: string | null;
  }
  const columns: CsvColumn<Row>[] = [
    { header: 'id', value: (row) => row.id },
    { header: 'prompt', value: (row) => row.prompt },
    { header: 'failure reason', value: (row) => row.reason },
  ];

  it('should write a header line and one line per row, separated by CRLF', () => {
    const csv = buildCsv(columns, [
      { id: 1, prompt: 'me, as an astronaut', reason: null },
      { id: 2, prompt: '=cmd', reason: 'The provider said "no"' },
    ]);

    expect(csv).toBe(
      'id,prompt,failure reason\r\n' + '1,"me, as an astronaut",\r\n' + `2,'=cmd,"The provider said ""no"""\r\n`,
    );
  });

  it('should write only the header for no rows', () => {
    expect(buildCsv(columns, [])).toBe('id,prompt,failure reason\r\n');
  });

  it('should make a UTF-8 CSV file that starts with a byte order mark', async () => {
    const blob = csvBlob('id\r\n1\r\n');

    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await readBytes(blob));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('id\r\n1\r\n');
  });
});
