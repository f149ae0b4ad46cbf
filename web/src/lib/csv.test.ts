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
    expect(toCSV(['A', 'B'], [['=x', '-1.5']])).toBe("A,B\n'=x,-1.5\n");
  });
});
