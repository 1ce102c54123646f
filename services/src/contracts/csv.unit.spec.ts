import { describe, expect, it } from 'vitest';
import { neutraliseCell, toCsv } from './csv';

describe('CSV exports', () => {
  it('writes cells that a spreadsheet would read as a formula as text', () => {
    for (const hostile of ['=1+1', '+2', '-3+cmd', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("http://evil.test","x")']) {
      expect(neutraliseCell(hostile)).toBe(`'${hostile}`);
    }
    expect(neutraliseCell('Ada Obi')).toBe('Ada Obi');
    expect(neutraliseCell(-500)).toBe('-500');
    expect(neutraliseCell(null)).toBe('');
  });

  it('quotes every cell and doubles quotes, so a cell cannot break out into the next one', () => {
    const csv = toCsv([{ name: 'A "quoted", name', reason: '=cmd|" /C calc"!A0', amount: 1500.5 }]);
    expect(csv).toBe('"name","reason","amount"\r\n"A ""quoted"", name","\'=cmd|"" /C calc""!A0","1500.5"\r\n');
  });
});
