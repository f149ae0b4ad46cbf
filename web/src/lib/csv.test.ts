import { describe, expect, it } from 'vitest';
import { csvCell, neutralise, toCSV } from './csv';

describe('CSV export cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+1+1', "'+1+1"],
    ["-2+3+cmd|'/C calc'!A0", "'-2+3+cmd|'/C calc'!A0"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['-', "'-"],
    ['-1e3', "'-1e3"],
  ])('neutralises %j', (input, want) => {
    expect(neutralise(input)).toBe(want);
  });

  it.each(['-12.5', '-3', '0.004', '50000', 'BTC-USD', 'Manual', '2026-05-10T12:00:00Z', ''])('leaves %j as it is', (v) => {
    expect(neutralise(v)).toBe(v);
  });

  it('quotes after neutralising', () => {
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('builds a document with a header', () => {
    expect(toCSV(['A', 'B'], [['=x', '-1.5']])).toBe("A,B\r\n'=x,-1.5\r\n");
  });

  it('reads back through a strict RFC 4180 parser: CRLF records, line breaks only inside quotes', () => {
    const rows = [
      ['a,b', 'say "hi"', 'two\nlines', '-1.5'],
      ['', '=1+1', 'x\r\ny', 'plain'],
    ];
    expect(parseStrictCSV(toCSV(['A', 'B', 'C', 'D'], rows))).toEqual([
      ['A', 'B', 'C', 'D'],
      ['a,b', 'say "hi"', 'two\nlines', '-1.5'],
      ['', "'=1+1", 'x\r\ny', 'plain'],
    ]);
  });
});

/** RFC 4180, strictly: every record ends in CRLF; a CR or LF outside quotes otherwise is an error. */
function parseStrictCSV(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.length && !',\r\n"'.includes(text.charAt(i))) cell += text.charAt(i++);
      if (text[i] === '"') throw new Error(`quote inside an unquoted cell at ${i}`);
    }
    record.push(cell);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.slice(i, i + 2) !== '\r\n') throw new Error(`record not ended by CRLF at ${i}`);
    i += 2;
    records.push(record);
    record = [];
  }
  if (record.length > 0) throw new Error('last record not ended by CRLF');
  return records;
}
