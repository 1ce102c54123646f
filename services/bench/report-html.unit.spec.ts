import { describe, expect, it } from 'vitest';
import { chartsForTable, parseNumber, renderHtmlReport } from './report-html';

describe('the HTML report of a bench run', () => {
  it('reads the printed cells as numbers', () => {
    expect([parseNumber('1,234'), parseNumber('12.5 ms'), parseNumber('0.93×'), parseNumber('1M'), parseNumber('100k'), parseNumber('n/a'), parseNumber('')]).toEqual([1234, 12.5, 0.93, 1e6, 1e5, null, null]);
  });

  it('draws sizes in the first column as growth lines on a log axis, and writers as bars', () => {
    const growth = chartsForTable({ title: 'matching', columns: ['members', 'seconds', 'rows/s', 'ours ÷ reference'], rows: [['10,000', '1.2', '9,000', '0.6×'], ['100,000', '9.8', '10,500', '0.55×'], ['1,000,000', '88', '11,000', '0.52×']] });
    expect(growth.map((c) => [c.kind, c.logX, c.series.map((s) => s.label)])).toEqual([
      ['line', true, ['rows/s']],
      ['line', true, ['seconds']],
      ['line', true, ['ours ÷ reference']],
    ]);
    const bars = chartsForTable({ title: 'append', columns: ['writers', 'ours/s', 'p99', 'plain/s', 'p99', 'ours÷plain'], rows: [[1, '69', '40.5', '65', '55.0', '1.06×'], [8, '187', '180.1', '303', '104.5', '0.62×']] });
    expect(bars.map((c) => [c.kind, c.series.map((s) => s.label)])).toEqual([
      ['bar', ['ours/s', 'plain/s']],
      ['bar', ['ours p99', 'plain p99']],
      ['bar', ['ours÷plain']],
    ]);
  });

  it('writes one page with Chart.js inlined and a canvas per chart', () => {
    const html = renderHtmlReport({
      startedAt: '2026-11-26T00:00:00.000Z',
      machine: { cpus: 2, cpuModel: 'test', memoryGb: 1, platform: 'linux', loadAverage: [1, 1, 1], node: 'v20', postgres: { server_version: '15' } },
      settings: {},
      results: { append: { description: 'appends <fast>', seconds: 1, tables: [{ title: 't', columns: ['writers', 'ours/s'], rows: [[1, '10']] }] } },
    });
    expect(html).toContain('appends &lt;fast&gt;');
    expect(html).toContain('id="chart-0"');
    expect(html).not.toContain('id="chart-1"');
    expect(html).toMatch(/Chart\.js v4/);
  });
});
